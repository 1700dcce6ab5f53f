// Runs the embedded server in its own process (for the kill-under-load tests): data folder from argv, the port
// from argv (a free one when absent, or 0), and prints `PORT <n>` once listening. QUPM_TEST_STATIC_DIR serves a
// build (the browser tests' restarted server); without it, none.
//
// Test-only switches, read here and nowhere in server/ (so never on in `npm start`): QUPM_TEST_PUSH_ORIGIN lets
// tokens point at a local Web Push receiver at that origin, and QUPM_TEST_PUSH_CA names the PEM file of the
// certificate the server must trust to reach it.
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import path from 'node:path';
import { buildServer } from '../server/app';
import type { ServerOptions } from '../server/app';

function testPush(): ServerOptions['push'] {
  const origin = process.env.QUPM_TEST_PUSH_ORIGIN;
  const ca = process.env.QUPM_TEST_PUSH_CA;
  if (!origin || !ca) return {};
  return {
    allowEndpoint: (url) => url.origin === origin,
    agent: new Agent({ ca: readFileSync(ca), keepAlive: true }),
  };
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: childServer.ts <dataDir>');
  const port = Number(process.argv[3] ?? '0');
  const app = await buildServer({
    staticDir: process.env.QUPM_TEST_STATIC_DIR ?? path.join(dataDir, 'no-build'),
    dataDir,
    scryptCost: 16,
    rateLimits: false,
    push: testPush(),
  });
  await app.listen({ port: Number.isInteger(port) ? port : 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  process.stdout.write(`PORT ${address.port}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
