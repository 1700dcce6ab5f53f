// The browser's Firestore code comes through one module of named re-exports (src/backend/firebase/firestoreSdk.ts):
// a namespace import of 'firebase/firestore' kept all of the SDK in the chunk. And QuPM makes no pipeline queries,
// the one use of the regular expression engine the build leaves out (src/backend/firebase/noPipelineRegex.ts).
import { code, sourceFiles } from './sourceTree';

const GATE = 'src/backend/firebase/firestoreSdk.ts';

/** A value import (not `import type`) of Firestore's SDK, or a dynamic import of it. */
const VALUE_IMPORT =
  /(^|\n)\s*import\s+(?!type\b)[^;]*from\s+['"](firebase|@firebase)\/firestore['"]|import\(\s*(\/\*.*?\*\/\s*)?['"](firebase|@firebase)\/firestore['"]/;
const PIPELINES = /['"](firebase|@firebase)\/firestore\/pipelines['"]|\bpipeline\(\)/;

describe('the Firestore SDK in the browser', () => {
  const files = sourceFiles('src');

  it('is loaded only through its named re-exports', () => {
    expect(files).toContain(GATE);
    expect(files.filter((file) => file !== GATE && VALUE_IMPORT.test(code(file)))).toEqual([]);
  });

  it('makes no pipeline queries', () => {
    expect(files.filter((file) => PIPELINES.test(code(file)))).toEqual([]);
  });

  it('catches what it forbids', () => {
    expect(VALUE_IMPORT.test("import { doc } from 'firebase/firestore';")).toBe(true);
    expect(
      VALUE_IMPORT.test('const sdk = await import(/* webpackChunkName: "x" */ \'firebase/firestore\');'),
    ).toBe(true);
    expect(VALUE_IMPORT.test("import type { Query } from 'firebase/firestore';")).toBe(false);
    expect(PIPELINES.test("import { pipeline } from 'firebase/firestore/pipelines';")).toBe(true);
  });
});
