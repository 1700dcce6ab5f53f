// Starts childServer.ts in a process of its own on `dataDir` and answers its port and a SIGKILL: the server that
// the crash tests (server, mail and push) and the chaos browser test kill without warning and start again.
import { spawn } from 'node:child_process';
import path from 'node:path';

export interface ChildServer {
  port: number;
  origin: string;
  /** SIGKILL: no shutdown code runs, as when the machine loses the process. */
  kill(): Promise<void>;
}

/** `port`: listen there (a restart on the port the pages know); default a free one. */
export function startChild(
  dataDir: string,
  env: Record<string, string> = {},
  port = 0,
): Promise<ChildServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'childServer.ts'), dataDir, String(port)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const match = /PORT (\d+)/.exec(out);
      if (match) {
        const port = Number(match[1]);
        resolve({
          port,
          origin: `http://127.0.0.1:${port}`,
          kill: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
}
