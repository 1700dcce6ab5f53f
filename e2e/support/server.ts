// The real embedded server, started in the test process on a free port, serving dist/.
import path from 'node:path';
import { buildServer } from '../../server/app';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(): Promise<RunningServer> {
  const app = await buildServer({ staticDir: path.join(__dirname, '..', '..', 'dist') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The server has no TCP address');
  return { url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}
