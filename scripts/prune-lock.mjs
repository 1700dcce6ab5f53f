// Run after `npm install` (npm run lock:prune). The registry these machines reach serves the native optional
// packages of Linux x64 only (@swc/core-*, @rollup/rollup-*, @unrs/resolver-binding-*), so npm cannot record the
// other platforms' ones in package-lock.json, and `npm ci` then refuses the lock as out of sync. This drops the
// optional dependency edges whose packages the lock does not hold, which is exactly what npm would skip anyway.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

// The root lock by default; another package's (functions/) when its path is given.
const file = process.argv[2] ? resolve(process.argv[2]) : new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const present = new Set(Object.keys(lock.packages).map((key) => key.replace(/^.*node_modules\//, '')));
let removed = 0;
for (const entry of Object.values(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!present.has(name)) {
      delete entry.optionalDependencies[name];
      removed += 1;
    }
  }
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(
  `${process.argv[2] ?? 'package-lock.json'}: dropped ${removed} optional edges to packages this registry does not serve`,
);
