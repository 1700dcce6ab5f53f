// Tests mirror the code, read off the tree so a new module cannot arrive without its test:
// every core/ module that has behaviour has __tests__/core/<name>.test.ts, every slice has its reducer test beside
// the others of its folder, and every server service has __tests__/server/<name>.test.ts.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, read } from './sourceTree';

const filesIn = (dir: string, pattern: RegExp): string[] =>
  readdirSync(path.join(ROOT, dir))
    .filter((name) => pattern.test(name))
    .map((name) => `${dir}/${name}`)
    .sort();

const exists = (file: string): boolean => existsSync(path.join(ROOT, file));

/** Whether a module has behaviour to test: a function, a class or a schema, not only types and constants. */
const hasBehaviour = (file: string): boolean =>
  /\bexport\s+(async\s+)?(function|class)\b|\bexport\s+const\s+\w+\s*=\s*(z\.|\(|async\b|function\b)/.test(
    read(file),
  );

/** The files of `sources` whose test (by `testOf`) does not exist. */
const untested = (sources: string[], testOf: (source: string) => string): string[] =>
  sources.filter((source) => !exists(testOf(source))).map((source) => `${source} → ${testOf(source)}`);

const base = (file: string): string => path.basename(file).replace(/\.tsx?$/, '');

describe('tests mirror the code', () => {
  it('tells a module of behaviour from one of types and constants', () => {
    expect(hasBehaviour('core/ids.ts')).toBe(true);
    expect(hasBehaviour('core/model.ts')).toBe(false);
  });

  it('every core/ module with behaviour has __tests__/core/<name>.test.ts', () => {
    const modules = filesIn('core', /\.ts$/).filter(hasBehaviour);
    expect(modules.length).toBeGreaterThan(10);
    expect(untested(modules, (file) => `__tests__/core/${base(file)}.test.ts`)).toEqual([]);
  });

  it('every slice has its reducer test', () => {
    const slices = [
      ...filesIn('src/store', /Slice\.ts$/).map((file) => [file, `__tests__/store/${base(file)}.test.ts`]),
      ...readdirSync(path.join(ROOT, 'src/features')).flatMap((feature) =>
        filesIn(`src/features/${feature}`, /Slice\.ts$/).map((file) => [
          file,
          `__tests__/features/${feature}/${base(file)}.test.ts`,
        ]),
      ),
    ];
    expect(slices.length).toBeGreaterThan(15);
    const missing = slices.filter(([, test]) => !exists(test!)).map(([slice, test]) => `${slice} → ${test}`);
    expect(missing).toEqual([]);
  });

  it('every server service has __tests__/server/<name>.test.ts', () => {
    const services = filesIn('server/services', /\.ts$/);
    expect(services.length).toBeGreaterThan(5);
    expect(untested(services, (file) => `__tests__/server/${base(file)}.test.ts`)).toEqual([]);
  });
});
