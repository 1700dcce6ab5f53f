// firestore.rules for private consultations, read as text: a channel's messages are read through
// canReadMessagesOf, which lets admins in only when the stored channel is not 'private'. What the rules do with it
// is tested on the emulator (emulator/firestoreRules.emulator.ts "private consultations") and, as transcribed for
// the SDK fake, by the contract suite on the Firebase adapter.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const rules = readFileSync(path.resolve(__dirname, '../../firestore.rules'), 'utf8');

function functionBody(name: string): string {
  const start = rules.indexOf(`function ${name}(`);
  expect(start).toBeGreaterThan(-1);
  return rules.slice(start, rules.indexOf('}', start));
}

describe('firestore.rules for private consultations', () => {
  it("reads a channel's messages only through canReadMessagesOf", () => {
    const messages = rules.slice(rules.indexOf('match /messages/{messageId}'));
    const read = /allow read: if ([^;]+);/.exec(messages)?.[1];
    expect(read).toBe('canReadMessagesOf(storedChannel(channelId))');
  });

  it('lets participants in, and admins only into channels that are not private', () => {
    const body = functionBody('canReadMessagesOf');
    expect(body).toMatch(
      /return canMessageIn\(channel\)\s*\|\|\s*\(isAdmin\(\) && channel\.get\('kind', 'standard'\) != 'private'\)/,
    );
  });

  it('decides from the stored channel document, never from a query limit', () => {
    expect(functionBody('canReadMessagesOf')).not.toMatch(/request\.query/);
    expect(functionBody('canMessageIn')).toMatch(/request\.auth\.uid in channel\.members/);
  });
});
