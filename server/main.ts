// `npm start`: runs the embedded QuPM server on PORT (default 8080) serving the production build in dist/,
// with its database in QUPM_DATA_DIR (default ./.qupm-data) and, on a first start, the demo world.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { buildServer, DEFAULT_DATA_DIR } from './app';
import { formatDemo } from './demo';

const DEFAULT_PORT = 8080;

function readPort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, not "${raw}"`);
  }
  return port;
}

async function main(): Promise<void> {
  const port = readPort(process.env.PORT);
  const host = process.env.HOST ?? 'localhost';
  const staticDir = path.resolve(process.env.QUPM_STATIC_DIR ?? path.join(__dirname, '..', 'dist'));
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    console.error(`No build found in ${staticDir}. Run "npm run build" first (npm start does it for you).`);
    process.exit(1);
  }
  const dataDir = path.resolve(process.env.QUPM_DATA_DIR || DEFAULT_DATA_DIR);
  const demo = (process.env.QUPM_DEMO ?? '').toLowerCase() !== 'off';
  const app = await buildServer({ staticDir, dataDir, demo, logger: process.env.QUPM_LOG === 'on' });
  try {
    await app.listen({ port, host });
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `Port ${port} is already in use. Stop what runs there, or start QuPM on another port: PORT=8081 npm start`,
      );
      process.exit(1);
    }
    throw error;
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const origin = `http://localhost:${actualPort}`;
  console.log(`QuPM is running at ${origin}`);
  console.log(`Data: ${app.qupm.databaseFile}${app.qupm.demoCreated ? ' (new, with the demo world)' : ''}`);
  const demoTable = formatDemo(app.qupm.demo, origin);
  if (demoTable) console.log(demoTable);
  const stop = (): void => {
    void app.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('QuPM could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
