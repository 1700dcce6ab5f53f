// The port contract on the Firebase adapter and the real Firebase JS SDK, against the Auth and Firestore emulators
// with firestore.rules and functions/'s real code (support/emulatorHarness.ts). Nothing of the SDK is mocked.
// What the emulators here cannot do is left to the faked SDK (firebase.test.ts), and the README lists each case.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describePortContract, leftOut } from '../portContract';
import { closeEmulatorEnvironment, createEmulatorHarness } from '../support/emulatorHarness';
import type { Limitation } from '../support/harness';

afterAll(closeEmulatorEnvironment);

describe('the Firebase backend on the emulators', () => {
  describePortContract(createEmulatorHarness, ['storage', 'clock']);
});

/** Each limitation's group in the README's list, by the words its line starts with. */
const GROUPS: Record<Limitation, RegExp> = { storage: /^- Cloud Storage/, clock: /^- Moving the clock/ };

describe('the cases left to the faked SDK', () => {
  it('are the ones the README lists, each under what the emulators cannot do', () => {
    const readme = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    const start = readme.indexOf('<!-- contract cases left to the faked SDK -->');
    const end = readme.indexOf('<!-- end of contract cases left to the faked SDK -->');
    expect(start).toBeGreaterThan(-1);
    const listed: Array<{ limitation: string; title: string }> = [];
    let group = '';
    for (const line of readme.slice(start, end).split('\n')) {
      if (line.startsWith('- ')) {
        group = Object.entries(GROUPS).find(([, words]) => words.test(line))?.[0] ?? line;
      } else if (line.startsWith('  - ')) {
        listed.push({ limitation: group, title: line.slice(4).trim() });
      }
    }
    const byTitle = (a: { title: string }, b: { title: string }) => a.title.localeCompare(b.title);
    expect(listed.sort(byTitle)).toEqual([...leftOut].sort(byTitle));
  });
});
