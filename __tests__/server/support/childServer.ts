// Runs the embedded server in its own process (for the kill-under-load test): data folder from argv, a free
// port, and prints `PORT <n>` once listening.
import path from 'node:path';
import { buildServer } from '../../../server/app';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: childServer.ts <dataDir>');
  const app = await buildServer({
    staticDir: path.join(dataDir, 'no-build'),
    dataDir,
    scryptCost: 16,
    rateLimits: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  process.stdout.write(`PORT ${address.port}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
