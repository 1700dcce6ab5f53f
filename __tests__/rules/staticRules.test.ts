// firestore.rules, checked without an emulator: no unconditional allow, no client-writable role field, every
// collection clients use covered. The collections are read off the Firestore code itself, so the list the check
// uses cannot fall behind it. And the check itself, proven to fail on planted bad rules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  FIRESTORE_COLLECTIONS,
  ROLE_FIELDS,
  SERVER_ONLY_COLLECTIONS,
  checkFirestoreRules,
} from '../../scripts/checkFirestoreRules';
import { read, sourceFiles } from '../architecture/sourceTree';

const root = path.resolve(__dirname, '../..');
const rules = readFileSync(path.join(root, 'firestore.rules'), 'utf8');
const check = (source: string) => checkFirestoreRules(source, FIRESTORE_COLLECTIONS);

/**
 * The collection names a piece of Firestore code names: the literal segments of `collection(db, 'users', uid,
 * 'pending')`, `doc(db, 'channels', id)`, `.collection('members')`, `.collectionGroup('FCMTokens')` and
 * `.doc(\`users/${uid}/channelReads/${id}\`)` (ids are never literals, so every literal segment is a collection).
 */
function collectionNames(source: string): string[] {
  const names: string[] = [];
  for (const call of source.matchAll(/\b(?:collection|collectionGroup|doc)\(([^()]*)\)/g)) {
    const args = call[1] ?? '';
    for (const literal of args.matchAll(/'([^']*)'|`([^`]*)`/g)) {
      const text = literal[1] ?? literal[2] ?? '';
      for (const segment of text.split('/')) if (/^[A-Za-z]\w*$/.test(segment)) names.push(segment);
    }
  }
  return names;
}

const lastSegment = (collection: string): string => collection.split('/').at(-1) ?? '';

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

  it('knows every collection the Firestore code names, and none it no longer uses', () => {
    const files = sourceFiles('src/backend/firebase', 'functions/src');
    const used = new Set(files.flatMap((file) => collectionNames(read(file))));
    const listed = [...FIRESTORE_COLLECTIONS, ...SERVER_ONLY_COLLECTIONS].map(lastSegment);
    expect([...used].sort()).toEqual([...new Set(listed)].sort());
  });

  it('reads collection names off every way the code names them', () => {
    const source = [
      "fs.collection(db, 'users', uid, 'pending')",
      "fs.doc(db, 'channels', channelId, 'messages', id)",
      "channelRef(id).collection('members').get()",
      "db.collectionGroup('FCMTokens').where('token', '==', token)",
      'db.doc(`users/${uid}/channelReads/${channelId}`)',
    ].join('\n');
    expect(collectionNames(source)).toEqual([
      'users',
      'pending',
      'channels',
      'messages',
      'members',
      'FCMTokens',
      'users',
      'channelReads',
    ]);
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
      'allow list: if signedIn() && resource.data.userId == request.auth.uid;',
      'allow list, update: if signedIn() && resource.data.userId == request.auth.uid;',
    );
    expect(check(bad)).toContain(
      'allow list, update at /offers/{offerId} lets a client write without a key allow-list (hasOnly)',
    );
  });

  describe('a list that does not depend on the stored documents (anyone could page through them)', () => {
    const channelsList = 'allow list: if canMessageIn(resource.data);';
    it.each([
      [
        "issue #14's handle lookup: any signed-in person, one document at a time",
        channelsList,
        'allow list: if canReadChannel(resource.data) || (signedIn() && request.query.limit <= 1);',
        'allow list at /channels/{channelId}',
      ],
      ['anyone signed in', channelsList, 'allow list: if signedIn();', 'allow list at /channels/{channelId}'],
      [
        'an admin branch hidden in a function the list calls',
        channelsList,
        'allow list: if canReadChannel(resource.data);',
        'allow list at /channels/{channelId}',
      ],
      [
        'a read (which includes list) open to admins',
        'allow list: if signedIn() && resource.data.userId == request.auth.uid;',
        'allow read: if isAdmin();',
        'allow read at /offers/{offerId}',
      ],
      [
        'a query on a field the document is never checked against',
        'allow list: if signedIn()\n        && (resource.data.consultantId == request.auth.uid || isInvitee(resource.data));',
        'allow list: if signedIn() && request.query.limit <= 10 && request.auth.token.email != null;',
        'allow list at /invitations/{invitationId}',
      ],
      [
        'a handle lookup that lists handles',
        'allow get: if signedIn() && resource != null && canReadChannel(storedChannel(resource.data.id));',
        'allow read: if signedIn();',
        'allow read at /channelHandles/{handle}',
      ],
    ])('%s', (_label, search, replacement, label) => {
      const bad = planted(search.replace(/\\n/g, '\n'), replacement.replace(/\\n/g, '\n'));
      expect(check(bad)).toEqual([
        `${label} lets a client list documents without depending on them (resource.data)`,
      ]);
    });

    it.each([
      [
        'a member-based list (a private channel of two)',
        'allow list: if request.auth.uid in resource.data.members;',
      ],
      ['a list behind a let binding on the document', 'allow list: if isMine();'],
    ])('passes %s', (_label, replacement) => {
      const good = planted('allow list: if canMessageIn(resource.data);', replacement).replace(
        'function signedIn()',
        'function isMine() {\n      let owner = resource.data.ownerId;\n      return signedIn() && owner == request.auth.uid;\n    }\n\n    function signedIn()',
      );
      expect(check(good)).toEqual([]);
    });

    it('passes a list inside one parent document: its path names the parent (users/{uid}/FCMTokens)', () => {
      expect(rules).toContain('allow read: if isUser(uid);');
      const bad = planted('allow read: if isUser(uid);', 'allow read: if signedIn();');
      expect(check(bad)).toEqual([
        'allow read at /users/{uid}/FCMTokens/{tokenId} lets a client list documents without depending on them (resource.data)',
      ]);
    });
  });

  it.each([
    ['update', 'allow create: if messageId', 'allow create, update: if messageId'],
    [
      'delete',
      'allow read: if canReadMessagesOf(storedChannel(channelId));',
      'allow read, delete: if canReadMessagesOf(storedChannel(channelId));',
    ],
  ])('messages a client may %s (a repeated id would overwrite)', (op, search, replacement) => {
    const bad = planted(search, replacement);
    expect(check(bad).join('\n')).toMatch(
      new RegExp(
        `allow [a-z, ]*${op}[a-z, ]* at .*messages/\\{messageId\\}: channels/\\{id\\}/messages is create-only`,
      ),
    );
  });

  it('an edit of a message that may rewrite who sent it (issue #13: only the text and its stamps change)', () => {
    const bad = planted(
      "changedKeys().hasOnly(['text', 'editedAt', 'updatedAt'])",
      "changedKeys().hasOnly(['text', 'editedAt', 'updatedAt', 'createdAt'])",
    );
    expect(check(bad)).toEqual([
      'allow update at /channels/{channelId}/messages/{messageId}: channels/{id}/messages is create-only: an update may change only listed keys (changedKeys().hasOnly), never senderId, senderName, createdAt (a repeated client id must be denied)',
    ]);
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
    expect(check(bad)).toEqual(['offers has no match block (/offers/{*})']);
  });

  it('a subcollection only matched at the wrong depth', () => {
    const bad = planted('match /channelPrefs/{channelId}', 'match /channelPreferences/{channelId}');
    expect(check(bad)).toEqual(['users/{uid}/channelPrefs has no match block (/users/{*}/channelPrefs/{*})']);
  });

  it('an empty match block, which Firestore refuses to compile (and with it every rule of the file)', () => {
    const bad = planted(
      'match /channelPrefs/{channelId} {\n        allow read: if isUser(uid);\n      }',
      'match /channelPrefs/{channelId} {\n      }',
    );
    expect(check(bad)).toEqual([
      'match /users/{uid}/channelPrefs/{channelId} is empty: the rules do not compile (a match body needs at least one declaration)',
    ]);
    expect(
      check(
        planted('match /channelHandles/{handle} {', 'match /channelHandles/{handle} { }\n    match /x/{y} {'),
      ),
    ).toEqual([
      'match /channelHandles/{handle} is empty: the rules do not compile (a match body needs at least one declaration)',
    ]);
  });
});
