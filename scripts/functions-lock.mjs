// Run after changing functions/'s dependencies (npm run lock:functions). functions/ is a workspace of the root
// package: one `npm ci` at the root installs it, from the root's package-lock.json. But `firebase deploy` uploads
// functions/ alone and installs its dependencies there, so functions/ keeps a lockfile of its own for that install.
// npm does not write one for a workspace; this resolves functions/package.json on its own (in a temporary folder,
// outside the workspace, with functions/.npmrc) and writes the result to functions/package-lock.json, pruned as
// the root's is. __tests__/hosting/functionsLock.test.ts checks it agrees with package.json and with the versions
// the root's lock gives the tests.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const functions = path.join(root, 'functions');
const work = mkdtempSync(path.join(tmpdir(), 'qupm-functions-lock-'));
try {
  for (const file of ['package.json', '.npmrc', 'package-lock.json']) {
    if (existsSync(path.join(functions, file)))
      copyFileSync(path.join(functions, file), path.join(work, file));
  }
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: work,
    stdio: 'inherit',
  });
  copyFileSync(path.join(work, 'package-lock.json'), path.join(functions, 'package-lock.json'));
  execFileSync(
    process.execPath,
    [path.join(root, 'scripts', 'prune-lock.mjs'), 'functions/package-lock.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
