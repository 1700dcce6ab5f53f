// drivers/authEmulatorPreload.js: preloaded into firebase-tools' Auth emulator, it makes exegesis (which serves
// the emulator's API) compile each validator on its first use instead of all at start. Seen from outside: an API
// whose schema Ajv refuses compiles at start with it (the refusal would come at that operation's first request),
// and fails at start without it.

/** An OpenAPI document with one operation whose request schema Ajv refuses to compile. */
const API = {
  openapi: '3.0.1',
  info: { title: 'One operation', version: '1' },
  paths: {
    '/things': {
      post: {
        'x-exegesis-controller': 'things',
        operationId: 'addThing',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { name: { type: 'not-a-type' } } },
            },
          },
        },
        responses: { '200': { description: 'Added' } },
      },
    },
  },
};
const OPTIONS = { controllers: { things: { addThing: () => ({}) } } };

interface Exegesis {
  compileApi(document: unknown, options: unknown): Promise<unknown>;
}

/** exegesis as a fresh process would load it, with the preload first or not. */
function loadExegesis(preloaded: boolean): Exegesis {
  let exegesis: Exegesis | undefined;
  // Each load in a module registry of its own, as a fresh process has; the preload is plain JavaScript (node
  // --require loads it into firebase-tools), hence require.
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (preloaded) require('../../drivers/authEmulatorPreload');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exegesis = require('exegesis') as Exegesis;
  });
  if (!exegesis) throw new Error('exegesis did not load');
  return exegesis;
}

it("compiles the API's validators on first use once preloaded", async () => {
  await expect(loadExegesis(true).compileApi(API, OPTIONS)).resolves.toBeDefined();
});

it('compiles them all at start without it (what the preload changes)', async () => {
  await expect(loadExegesis(false).compileApi(API, OPTIONS)).rejects.toThrow(/schema is invalid/);
});
