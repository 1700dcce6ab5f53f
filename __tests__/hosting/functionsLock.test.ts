// functions/ is an npm workspace (one `npm ci` at the root installs it and its tests run against the root's
// lock), and keeps a lockfile of its own for `firebase deploy`, which installs functions/ alone
// (scripts/functions-lock.mjs writes it). The two must not drift: a deploy must run the versions the tests ran.
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Lock {
  packages: Record<
    string,
    { version?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
  >;
}
const read = <T>(file: string): T =>
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', file), 'utf8')) as T;

const manifest = read<{ dependencies: Record<string, string>; devDependencies: Record<string, string> }>(
  'functions/package.json',
);
const functionsLock = read<Lock>('functions/package-lock.json');
const rootLock = read<Lock>('package-lock.json');
const rootManifest = read<{ workspaces?: string[] }>('package.json');

/** The version Node finds for `name` from functions/ in the workspace: its own node_modules, else the root's. */
const workspaceVersion = (name: string): string | undefined =>
  rootLock.packages[`functions/node_modules/${name}`]?.version ??
  rootLock.packages[`node_modules/${name}`]?.version;

describe('functions/ as a workspace with a deployable lockfile', () => {
  it('is a workspace of the root, so one npm ci installs it', () => {
    expect(rootManifest.workspaces).toContain('functions');
    expect(rootLock.packages.functions).toMatchObject({ version: expect.any(String) });
  });

  it('locks exactly what its package.json asks for', () => {
    const top = functionsLock.packages[''];
    expect(top?.dependencies).toEqual(manifest.dependencies);
    expect(top?.devDependencies).toEqual(manifest.devDependencies);
  });

  it.each(Object.keys({ ...manifest.dependencies }))(
    'deploys %s at the version the tests run with',
    (name) => {
      expect(functionsLock.packages[`node_modules/${name}`]?.version).toBe(workspaceVersion(name));
    },
  );
});
