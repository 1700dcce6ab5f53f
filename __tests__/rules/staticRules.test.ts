// firestore.rules, checked without an emulator: no unconditional allow, no client-writable role field, every
// collection of ARCHITECTURE.md covered. And the check itself, proven to fail on planted bad rules.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  KNOWN_COLLECTIONS,
  ROLE_FIELDS,
  architecturePath,
  checkFirestoreRules,
  collectionsFromArchitecture,
} from '../../scripts/checkFirestoreRules';

const root = path.resolve(__dirname, '../..');
const rules = readFileSync(path.join(root, 'firestore.rules'), 'utf8');

function architectureCollections(): string[] {
  const file = architecturePath(root);
  if (!existsSync(file)) {
    throw new Error(`ARCHITECTURE.md not found at ${file}: set QUPM_ARCHITECTURE_MD to its path`);
  }
  return collectionsFromArchitecture(readFileSync(file, 'utf8'));
}

const COLLECTIONS = architectureCollections();
const check = (source: string) => checkFirestoreRules(source, COLLECTIONS);

/** The rules with one replacement, which must have happened. */
function planted(search: string | RegExp, replacement: string): string {
  const changed = rules.replace(search, replacement);
  expect(changed).not.toBe(rules);
  return changed;
}

describe('firestore.rules', () => {
  it('passes the static check', () => {
    expect(check(rules)).toEqual([]);
  });

  it("reads every collection of ARCHITECTURE.md's Data table, the ones a deploy without shared/ checks", () => {
    expect([...COLLECTIONS].sort()).toEqual([...KNOWN_COLLECTIONS].sort());
  });

  it('never names a role field in what a client may write', () => {
    for (const field of ROLE_FIELDS) {
      expect(rules).not.toMatch(new RegExp(`hasOnly\\(\\[[^\\]]*'${field}'`));
    }
  });
});

describe('the static check fails on a planted bad rule', () => {
  it.each([
    ['an allow ... if true', () => planted('allow read: if isUser(uid);', 'allow read: if true;')],
    ['an allow with no condition', () => planted('allow delete: if isUser(uid);', 'allow delete;')],
    [
      'a condition that is true whatever else it says',
      () => planted('allow get: if isUser(uid) || isAdmin();', 'allow get: if isUser(uid) || true;'),
    ],
    [
      'a condition hiding true in a function',
      () =>
        planted('allow get: if isUser(uid) || isAdmin();', 'allow get: if anyone();').replace(
          'function signedIn()',
          'function anyone() {\n      return true;\n    }\n\n    function signedIn()',
        ),
    ],
  ])('%s', (_label, make) => {
    expect(check(make()).join('\n')).toMatch(/holds unconditionally/);
  });

  it.each(ROLE_FIELDS)('a profile update that may write %s', (field) => {
    const bad = planted(
      "changedKeys().hasOnly(['nickname', 'displayName', 'notificationSettings'])",
      `changedKeys().hasOnly(['nickname', 'displayName', 'notificationSettings', '${field}'])`,
    );
    expect(check(bad)).toContain(`allow update at /users/{uid} lets a client write the role field ${field}`);
  });

  it('a role field in a let-bound field list', () => {
    const bad = planted(
      "let fields = ['senderId', 'senderName', 'text', 'createdAt'];",
      "let fields = ['senderId', 'senderName', 'text', 'createdAt', 'credits'];",
    );
    expect(check(bad).join('\n')).toMatch(/role field credits/);
  });

  it('a client write without a key allow-list', () => {
    const bad = planted(
      'allow read: if signedIn() && (resource.data.userId == request.auth.uid || isAdmin());',
      'allow read, update: if signedIn() && resource.data.userId == request.auth.uid;',
    );
    expect(check(bad)).toContain(
      'allow read, update at /offers/{offerId} lets a client write without a key allow-list (hasOnly)',
    );
  });

  it.each([
    ['update', 'allow create: if messageId', 'allow create, update: if messageId'],
    [
      'delete',
      'allow read: if canReadChannel(storedChannel(channelId));',
      'allow read, delete: if canReadChannel(storedChannel(channelId));',
    ],
  ])('messages a client may %s (a repeated id would overwrite)', (op, search, replacement) => {
    const bad = planted(search, replacement);
    expect(check(bad).join('\n')).toMatch(
      new RegExp(
        `allow [a-z, ]*${op}[a-z, ]* at .*messages/\\{messageId\\}: channels/\\{id\\}/messages is create-only`,
      ),
    );
  });

  it.each([
    [
      'create',
      'allow update: if isUser(uid) && isTouch();',
      'allow create, update: if isUser(uid) && isTouch();',
    ],
    ['write', 'allow delete: if isUser(uid);', 'allow write: if isUser(uid) && isTouch();'],
  ])('token documents a client may %s (save_push_token keeps one per device)', (op, search, replacement) => {
    const bad = planted(search, replacement);
    expect(check(bad).join('\n')).toMatch(
      new RegExp(
        `allow [a-z, ]*${op}[a-z, ]* at /users/\\{uid\\}/FCMTokens/\\{tokenId\\}: users/\\{uid\\}/FCMTokens is created by functions only`,
      ),
    );
  });

  it("a message create that does not check the client-chosen id's shape", () => {
    const bad = planted(
      "allow create: if messageId.matches('^[A-Za-z0-9]{20}$')\n          && ",
      'allow create: if ',
    );
    expect(check(bad)).toEqual([
      "allow create at /channels/{channelId}/messages/{messageId} does not check the client-chosen id's shape (messageId.matches('^[A-Za-z0-9]{20}$'))",
    ]);
  });

  it('a collection without a match block', () => {
    const bad = planted(
      /\n {4}\/\/ Read through the get_user_active_offers[\s\S]*?match \/offers\/\{offerId\} \{[^}]*\}\n/,
      '\n',
    );
    expect(check(bad)).toEqual(["ARCHITECTURE.md's offers has no match block (/offers/{*})"]);
  });

  it('a subcollection only matched at the wrong depth', () => {
    const bad = planted('match /pending/{source}', 'match /pendingCounts/{source}');
    expect(check(bad)).toEqual([
      "ARCHITECTURE.md's users/{uid}/pending has no match block (/users/{*}/pending/{*})",
    ]);
  });
});
