// `npm run bench`: measures what a user pays for and writes bench/reports/bench.{md,json}.
// The build's sizes, the push-token bookkeeping cost over 30 simulated days, the embedded server's latency, and
// push fan-out throughput to 1,000 tokens.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildProduction, reportBundle } from './bundle';
import { benchPushFanout } from './pushFanout';
import { benchPushTokens } from './pushTokens';
import { benchServer } from './server';
import type { BundleReport } from './bundle';

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

function markdown(report: BundleReport): string {
  const lines = [
    '# QuPM benchmark',
    '',
    `Run ${new Date().toISOString()} on Node ${process.version}.`,
    '',
    '## Bundle (production build, gzip -9)',
    '',
    `Shell (everything before the first screen of \`/\`): **${kb(report.shell.gzipBytes)}** of ${kb(report.shell.budgetBytes)} budget.`,
    '',
    '| shell file | bytes | gzipped |',
    '|---|---:|---:|',
    ...report.shell.files.map((f) => `| ${f.file} | ${f.bytes} | ${f.gzipBytes} |`),
    '',
    `Firestore/Messaging/Functions modules in the shell: ${report.shell.lazyOnlyModules.length}`,
    '',
    '| route chunk | gzipped |',
    '|---|---:|',
    ...report.routes.map((r) => `| ${r.chunk} | ${kb(r.gzipBytes)} |`),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'qupm-bench-'));
  try {
    const bundle = reportBundle(await buildProduction(outDir), outDir);
    const { markdown: tokensMarkdown, ...pushTokens } = await benchPushTokens();
    const { markdown: serverMarkdown, ...server } = await benchServer();
    const { markdown: fanoutMarkdown, ...pushFanout } = await benchPushFanout();
    const reportsDir = path.join(__dirname, 'reports');
    mkdirSync(reportsDir, { recursive: true });
    writeFileSync(
      path.join(reportsDir, 'bench.json'),
      JSON.stringify({ date: new Date().toISOString(), bundle, pushTokens, server, pushFanout }, null, 2),
    );
    const md = `${markdown(bundle)}\n${tokensMarkdown}\n${serverMarkdown}\n${fanoutMarkdown}\n`;
    writeFileSync(path.join(reportsDir, 'bench.md'), md);
    console.log(md);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
