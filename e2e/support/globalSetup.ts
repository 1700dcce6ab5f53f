// The browser tests drive the production build: make sure there is one and that Chromium is installed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH } from '../../drivers/chromium';

export default function globalSetup(): void {
  const shell = path.join(__dirname, '..', '..', 'dist', 'index.html');
  if (!existsSync(shell))
    throw new Error('No production build in dist/: run "npm run build" (npm run test:e2e does).');
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (.ci/run does it).`);
  }
}
