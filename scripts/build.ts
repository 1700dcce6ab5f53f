// The production build into dist/, as `npm run build` makes it, that can also keep webpack's stats for the bundle
// test, so CI builds once and every stage reuses the one build (.ci/run):
//   node --import tsx scripts/build.ts [--stats <file>]
// The stats file holds `{ outDir, stats }`; __tests__/build/bundle.test.ts measures that build when
// QUPM_BUILD_STATS names the file, and makes its own otherwise.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildProduction } from '../bench/bundle';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--stats');
  const statsFile = at > 0 ? process.argv[at + 1] : undefined;
  if (at > 0 && !statsFile) throw new Error('usage: scripts/build.ts [--stats <file>]');
  const outDir = path.join(__dirname, '..', 'dist');
  const stats = await buildProduction(outDir);
  for (const warning of stats.warnings ?? []) console.warn(warning.message);
  if (statsFile) writeFileSync(statsFile, JSON.stringify({ outDir, stats }));
  console.log(`Built ${outDir}${statsFile ? `, stats in ${statsFile}` : ''}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
