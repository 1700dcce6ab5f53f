// Preloaded into firebase-tools' Auth emulator (node --require, drivers/authEmulator.ts): the emulator's API
// validators are compiled when each is first used instead of all at start. exegesis, which serves the emulator's
// REST API from its OpenAPI document, compiles a request and a response validator for every operation at start,
// each with an Ajv of its own that compiles its meta-schema again: three quarters of the start's CPU time (about
// 40 s of a start on a loaded 2-core machine, where it has run past two minutes). exegesis's own option
// lazyCompileValidationSchemas compiles each one on its first use; the validation itself is unchanged. Where
// exegesis is not found as expected, the emulator starts as it would have.
'use strict';
const path = require('node:path');

try {
  const firebaseTools = path.dirname(require.resolve('firebase-tools/package.json'));
  const exegesisExpress = path.dirname(require.resolve('exegesis-express', { paths: [firebaseTools] }));
  const exegesis = require(require.resolve('exegesis', { paths: [exegesisExpress] }));
  const compileApi = exegesis.compileApi;
  if (typeof compileApi === 'function') {
    exegesis.compileApi = (openApiDoc, options, done) =>
      compileApi(openApiDoc, { ...options, lazyCompileValidationSchemas: true }, done);
  }
} catch {
  // Another layout of firebase-tools: nothing changes.
}
