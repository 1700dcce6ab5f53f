// firestore.rules on the Firestore emulator (@firebase/rules-unit-testing): what the rules alone decide, each
// case on its own, beside the contract suite's run on the emulators, which goes through them as the app does.
// Run with `npm run test:rules` (it starts the emulator jar when FIRESTORE_EMULATOR_HOST is not set).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestContext, RulesTestEnvironment } from '@firebase/rules-unit-testing';
import {
  Timestamp,
  addDoc,
  collection,
  deleteDoc,
  deleteField,
  doc,
  documentId,
  getDoc,
  getDocs,
  limit,
  orderBy,
  query,
  serverTimestamp,
  setDoc,
  updateDoc,
  where,
  writeBatch,
} from 'firebase/firestore';
import { ROLE_FIELDS } from '../../../scripts/checkFirestoreRules';
import { FORMER_MEMBER_ID } from '../../../core/leaving';

const OWNER = 'ConsultantUid0000001';
const MEMBER = 'MemberUid00000000001';
const STRANGER = 'StrangerUid000000001';
const ADMIN = 'AdminUid000000000001';
const CHANNEL = 'ChannelStudio0000001';

let env: RulesTestEnvironment;

beforeAll(async () => {
  env = await initializeTestEnvironment({
    projectId: 'demo-qupm-rules',
    firestore: { rules: readFileSync(path.resolve(__dirname, '../../../firestore.rules'), 'utf8') },
  });
});

afterAll(() => env.cleanup());

beforeEach(async () => {
  await env.clearFirestore();
  // One batch: one round trip to the emulator before each test instead of ten.
  await env.withSecurityRulesDisabled(async (context) => {
    const db = context.firestore();
    const batch = writeBatch(db);
    const user = (uid: string, extra: object = {}) =>
      batch.set(doc(db, 'users', uid), {
        email: `${uid}@qupm.test`,
        isOwner: false,
        credits: 0,
        passCount: 0,
        effectiveConId: '',
        notificationSettings: { enabled: true, delivery: { channels: ['push', 'in_app'] } },
        ...extra,
      });
    user(OWNER, { isOwner: true, effectiveConId: OWNER });
    user(MEMBER, { nickname: 'Morgan' });
    user(STRANGER);
    user(ADMIN);
    batch.set(doc(db, 'channels', CHANNEL), {
      channelId: 'strategy-studio',
      ownerId: OWNER,
      title: 'Strategy Studio',
      description: '',
      members: [MEMBER],
      createdAt: serverTimestamp(),
    });
    batch.set(doc(db, 'channelHandles', 'strategy-studio'), { id: CHANNEL });
    batch.set(doc(db, 'channels', CHANNEL, 'messages', 'MessageOne0000000001'), {
      senderId: OWNER,
      senderName: 'Dana',
      text: 'Welcome',
      createdAt: serverTimestamp(),
    });
    batch.set(doc(db, 'invitations', 'InvitePending0000001'), {
      channelId: CHANNEL,
      consultantId: OWNER,
      status: 'pending',
      passes: 1,
      credits: 1,
    });
    batch.set(doc(db, 'invitations', 'InviteForMember00001'), {
      channelId: CHANNEL,
      consultantId: OWNER,
      inviteeEmail: `${MEMBER.toLowerCase()}@qupm.test`,
      status: 'pending',
      passes: 1,
      credits: 1,
    });
    batch.set(doc(db, 'offers', 'OfferActive000000001'), {
      userId: MEMBER,
      channelId: CHANNEL,
      status: 'active',
      discountPercent: 20,
    });
    batch.set(doc(db, 'users', MEMBER, 'pending', CHANNEL), { count: 2 });
    await batch.commit();
  });
});

const as = (uid: string): RulesTestContext =>
  env.authenticatedContext(uid, uid === ADMIN ? { isAdmin: true } : {});
const dbOf = (uid: string) => as(uid).firestore();
const nobody = () => env.unauthenticatedContext().firestore();

const TOKEN = {
  token: 'fcm-token-0123456789abcdef:APA91b',
  deviceId: 'device-1',
  platform: 'web',
  userAgent: 'Rules/1.0',
  status: 'active',
};

describe('users/{uid}', () => {
  it('is read by its owner and admins only', async () => {
    await assertSucceeds(getDoc(doc(dbOf(MEMBER), 'users', MEMBER)));
    await assertSucceeds(getDoc(doc(dbOf(ADMIN), 'users', MEMBER)));
    await assertFails(getDoc(doc(dbOf(STRANGER), 'users', MEMBER)));
    await assertFails(getDoc(doc(nobody(), 'users', MEMBER)));
    await assertFails(getDocs(collection(dbOf(ADMIN), 'users')));
  });

  it('lets its owner change the nickname, display name and notification settings', async () => {
    await assertSucceeds(
      updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), {
        nickname: 'Mo',
        displayName: 'Morgan R',
        notificationSettings: { enabled: false, delivery: { channels: ['in_app'] } },
      }),
    );
    await assertSucceeds(updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), { nickname: deleteField() }));
  });

  it.each(ROLE_FIELDS)('never lets its owner write %s', async (field) => {
    await assertFails(
      updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), {
        [field]: field === 'isOwner' || field === 'isAdmin' ? true : 5,
      }),
    );
  });

  it.each([
    ['a nickname over 40 characters', { nickname: 'n'.repeat(41) }],
    ['an empty display name', { displayName: '' }],
    ['a numeric nickname', { nickname: 7 }],
    [
      'an unknown delivery channel',
      { notificationSettings: { enabled: true, delivery: { channels: ['sms'] } } },
    ],
    [
      'a repeated delivery channel',
      { notificationSettings: { enabled: true, delivery: { channels: ['push', 'push'] } } },
    ],
    ['extra settings', { notificationSettings: { enabled: true, delivery: { channels: [] }, loud: true } }],
    ['an email', { email: 'someone@else.test' }],
  ])('refuses %s', async (_label, patch) => {
    await assertFails(updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), patch));
  });

  describe('the profile picture (core/photos.ts)', () => {
    const url = (uid: string, photoId = 'AbCdEfGhIjKlMnOpQrSt') =>
      `https://firebasestorage.googleapis.com/v0/b/demo-qupm.appspot.com/o/photos%2F${uid}%2F${photoId}?alt=media&token=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0`;

    it('lets its owner set it to a download URL of their own photos, and remove it', async () => {
      await assertSucceeds(updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), { photoURL: url(MEMBER) }));
      await assertSucceeds(updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), { photoURL: deleteField() }));
    });

    it.each([
      ["someone else's picture", url(OWNER)],
      [
        'another site',
        'https://evil.example/v0/b/x/o/photos%2FMemberUid00000000001%2FAbCdEfGhIjKlMnOpQrSt?alt=media&token=a',
      ],
      ['a script', 'javascript:alert(1)'],
      ['a data URL', 'data:image/png;base64,AAAA'],
      ['a file outside the photos folder', url(MEMBER).replace('photos%2F', 'channels%2F')],
      ['a URL of 2,000 characters', url(MEMBER) + 'a'.repeat(2000)],
      ['a number', 7],
    ])('refuses %s', async (_label, photoURL) => {
      await assertFails(updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), { photoURL }));
    });

    it("refuses a picture on someone else's document, and one written with another field", async () => {
      await assertFails(updateDoc(doc(dbOf(STRANGER), 'users', MEMBER), { photoURL: url(MEMBER) }));
      await assertFails(updateDoc(doc(dbOf(MEMBER), 'users', MEMBER), { photoURL: url(MEMBER), credits: 5 }));
    });
  });

  it("refuses changes to someone else's profile, and creating or deleting users", async () => {
    await assertFails(updateDoc(doc(dbOf(STRANGER), 'users', MEMBER), { nickname: 'x' }));
    await assertFails(
      setDoc(doc(dbOf('NewUid00000000000001'), 'users', 'NewUid00000000000001'), { isOwner: false }),
    );
    await assertFails(deleteDoc(doc(dbOf(MEMBER), 'users', MEMBER)));
  });
});

describe('the former member (core/leaving.ts)', () => {
  it('signs nobody in: a token naming it reads and writes nothing, even where its uid is written', async () => {
    const FORMER = FORMER_MEMBER_ID;
    await env.withSecurityRulesDisabled(async (context) => {
      const db = context.firestore();
      // The worst a mistake could leave: its own document, a channel listing it, what departed people left.
      await setDoc(doc(db, 'users', FORMER), { email: 'someone@qupm.test', isOwner: false });
      await updateDoc(doc(db, 'channels', CHANNEL), { members: [MEMBER, FORMER] });
      await setDoc(doc(db, 'channels', CHANNEL, 'messages', 'MessageLeft000000001'), {
        senderId: FORMER,
        senderName: 'A former member',
        text: 'Left behind',
        createdAt: serverTimestamp(),
      });
      await setDoc(doc(db, 'invitations', 'InviteOfLeaver000001'), {
        channelId: CHANNEL,
        consultantId: FORMER,
        status: 'expired',
        passes: 1,
        credits: 1,
      });
    });
    const db = dbOf(FORMER);
    await assertFails(getDoc(doc(db, 'users', FORMER)));
    await assertFails(updateDoc(doc(db, 'users', FORMER), { nickname: 'Back' }));
    await assertFails(getDoc(doc(db, 'channels', CHANNEL)));
    await assertFails(getDoc(doc(db, 'channels', CHANNEL, 'messages', 'MessageLeft000000001')));
    await assertFails(
      updateDoc(doc(db, 'channels', CHANNEL, 'messages', 'MessageLeft000000001'), { text: 'Rewritten' }),
    );
    await assertFails(getDoc(doc(db, 'invitations', 'InviteOfLeaver000001')));
    await assertFails(getDocs(query(collection(db, 'invitations'), where('consultantId', '==', FORMER))));
    // The member beside it still reads the channel: the rule names the placeholder, nobody else.
    await assertSucceeds(getDoc(doc(dbOf(MEMBER), 'channels', CHANNEL)));
  });
});

describe('users/{uid}/FCMTokens', () => {
  const tokens = (uid: string, owner = uid) => collection(dbOf(uid), 'users', owner, 'FCMTokens');
  const fresh = () => ({ ...TOKEN, createdAt: serverTimestamp(), lastUsed: serverTimestamp() });
  /** A token document as the save_push_token callable stores it (rules do not bind functions). */
  const saved = async (owner = MEMBER) => {
    await env.withSecurityRulesDisabled((context) =>
      setDoc(doc(context.firestore(), 'users', owner, 'FCMTokens', 'TokenMember000000001'), fresh()),
    );
    return doc(dbOf(owner), 'users', owner, 'FCMTokens', 'TokenMember000000001');
  };

  it('lets the owner find, touch and delete their own token documents', async () => {
    const ref = await saved();
    await assertSucceeds(
      getDocs(
        query(tokens(MEMBER), where('token', '==', TOKEN.token), where('status', '==', 'active'), limit(1)),
      ),
    );
    await assertSucceeds(updateDoc(ref, { lastUsed: serverTimestamp() }));
    await assertSucceeds(deleteDoc(ref));
  });

  it('refuses a touch of a pruned document, but lets its owner see it is gone (issue #14 part 8)', async () => {
    const ref = await saved();
    await env.withSecurityRulesDisabled((context) =>
      deleteDoc(doc(context.firestore(), 'users', MEMBER, 'FCMTokens', 'TokenMember000000001')),
    );
    // PERMISSION_DENIED, not NOT_FOUND: the adapter reads the document again to tell a pruned one apart.
    await assertFails(updateDoc(ref, { lastUsed: serverTimestamp() }));
    const snapshot = await assertSucceeds(getDoc(ref));
    expect(snapshot.exists()).toBe(false);
  });

  it('lets no client create one, however well formed: save_push_token keeps one per device', async () => {
    await assertFails(addDoc(tokens(MEMBER), fresh()));
    await assertFails(setDoc(doc(tokens(MEMBER), 'TokenChosenByClient1'), fresh()));
  });

  it("refuses anyone else's", async () => {
    await saved();
    await assertFails(addDoc(tokens(STRANGER, MEMBER), fresh()));
    await assertFails(getDocs(tokens(STRANGER, MEMBER)));
    await assertFails(deleteDoc(doc(tokens(STRANGER, MEMBER), 'TokenMember000000001')));
  });

  it('lets a touch change lastUsed only, to the server time', async () => {
    const ref = await saved();
    await assertFails(updateDoc(ref, { lastUsed: serverTimestamp(), token: 'another-token-0123456789' }));
    await assertFails(updateDoc(ref, { lastUsed: new Date() }));
  });
});

describe('channels and messages', () => {
  it('lets the owner, members and admins read a channel, and nobody else', async () => {
    await assertSucceeds(getDoc(doc(dbOf(OWNER), 'channels', CHANNEL)));
    await assertSucceeds(getDoc(doc(dbOf(MEMBER), 'channels', CHANNEL)));
    await assertSucceeds(getDoc(doc(dbOf(ADMIN), 'channels', CHANNEL)));
    await assertFails(getDoc(doc(dbOf(STRANGER), 'channels', CHANNEL)));
  });

  it('answers that a channel does not exist to anyone signed in, as the embedded server does', async () => {
    const missing = await assertSucceeds(getDoc(doc(dbOf(STRANGER), 'channels', 'NoSuchChannel0000001')));
    expect(missing.exists()).toBe(false);
    await assertFails(getDoc(doc(nobody(), 'channels', 'NoSuchChannel0000001')));
    await assertFails(getDoc(doc(dbOf(STRANGER), 'channels', CHANNEL)));
  });

  it("allows the adapter's queries: the channels one owns, and those one is a member of", async () => {
    const channels = collection(dbOf(MEMBER), 'channels');
    await assertSucceeds(getDocs(query(collection(dbOf(OWNER), 'channels'), where('ownerId', '==', OWNER))));
    await assertSucceeds(getDocs(query(channels, where('members', 'array-contains', MEMBER))));
  });

  it('lists no channel one is not in, one at a time or by handle: channels are not enumerable (issue #14 part 9)', async () => {
    const byHandle = (db: ReturnType<typeof nobody>, n: number) =>
      getDocs(query(collection(db, 'channels'), where('channelId', '==', 'strategy-studio'), limit(n)));
    await assertFails(byHandle(dbOf(STRANGER), 1));
    await assertFails(getDocs(query(collection(dbOf(STRANGER), 'channels'), limit(1))));
    await assertFails(getDocs(query(collection(dbOf(STRANGER), 'channels'), orderBy('channelId'), limit(1))));
    await assertFails(byHandle(nobody(), 1));
    // Admins read any channel by id, and list them through admin_list_channels, not by a query.
    await assertFails(getDocs(query(collection(dbOf(ADMIN), 'channels'), limit(1))));
    await assertSucceeds(getDoc(doc(dbOf(ADMIN), 'channels', CHANNEL)));
  });

  it('resolves a handle to its channel id for those who may read the channel, one handle at a time', async () => {
    for (const uid of [OWNER, MEMBER, ADMIN]) {
      const handle = await assertSucceeds(getDoc(doc(dbOf(uid), 'channelHandles', 'strategy-studio')));
      expect(handle.data()).toEqual({ id: CHANNEL });
    }
    await assertFails(getDocs(query(collection(dbOf(MEMBER), 'channelHandles'), limit(1))));
    await assertFails(setDoc(doc(dbOf(OWNER), 'channelHandles', 'taken-by-me'), { id: CHANNEL }));
  });

  it('resolves no handle for anyone else: whether a channel exists is theirs to know, as on the embedded server', async () => {
    await assertFails(getDoc(doc(dbOf(STRANGER), 'channelHandles', 'strategy-studio')));
    await assertFails(getDoc(doc(nobody(), 'channelHandles', 'strategy-studio')));
    // A handle nobody took answers the same: no difference to tell one from the other.
    await assertFails(getDoc(doc(dbOf(STRANGER), 'channelHandles', 'no-such-channel')));
    await assertFails(getDoc(doc(dbOf(MEMBER), 'channelHandles', 'no-such-channel')));
  });

  it('lets the owner and members read messages, newest first', async () => {
    const messages = (uid: string) =>
      query(collection(dbOf(uid), 'channels', CHANNEL, 'messages'), orderBy('createdAt', 'desc'), limit(50));
    await assertSucceeds(getDocs(messages(MEMBER)));
    await assertSucceeds(getDocs(messages(ADMIN)));
    await assertFails(getDocs(messages(STRANGER)));
  });

  it("allows the adapter's pages and live query: millisecond ranges ordered by (createdAt, documentId())", async () => {
    const messages = (uid: string) => collection(dbOf(uid), 'channels', CHANNEL, 'messages');
    const at = Timestamp.fromMillis(Date.now() - 60_000);
    const page = (uid: string) =>
      query(
        messages(uid),
        where('createdAt', '<', at),
        orderBy('createdAt', 'desc'),
        orderBy(documentId(), 'desc'),
        limit(50),
      );
    const since = (uid: string) =>
      query(messages(uid), where('createdAt', '>=', at), orderBy('createdAt'), orderBy(documentId()));
    await assertSucceeds(getDocs(page(MEMBER)));
    await assertSucceeds(getDocs(since(OWNER)));
    await assertFails(getDocs(page(STRANGER)));
    await assertFails(getDocs(since(STRANGER)));
  });

  /** core/users.ts publicName of each person as seeded: the nickname, else the email's local part. */
  const NAMES: Record<string, string> = {
    [MEMBER]: 'Morgan',
    [OWNER]: OWNER,
    [STRANGER]: STRANGER,
    [ADMIN]: ADMIN,
  };
  const message = (senderId: string, text = 'Hello') => ({
    senderId,
    senderName: NAMES[senderId] ?? '',
    text,
    createdAt: serverTimestamp(),
  });
  /** Where the adapter writes: under the id the client chose (core/ids.ts newDocumentId). */
  const messageRef = (uid: string, id: string) => doc(dbOf(uid), 'channels', CHANNEL, 'messages', id);

  it('lets the owner and members write a message as themselves, under an id they chose', async () => {
    await assertSucceeds(setDoc(messageRef(MEMBER, 'ClientChosenId000001'), message(MEMBER)));
    await assertSucceeds(setDoc(messageRef(OWNER, 'ClientChosenId000002'), message(OWNER)));
    await assertSucceeds(addDoc(collection(dbOf(MEMBER), 'channels', CHANNEL, 'messages'), message(MEMBER)));
  });

  it('takes the name from the stored user document: nickname, display name, email, or none at all', async () => {
    const { senderName: _none, ...unnamed } = message(MEMBER);
    await assertSucceeds(setDoc(messageRef(MEMBER, 'ClientChosenId000011'), unnamed));
    await env.withSecurityRulesDisabled((context) =>
      updateDoc(doc(context.firestore(), 'users', MEMBER), {
        nickname: deleteField(),
        displayName: 'Morgan Lee',
      }),
    );
    await assertFails(setDoc(messageRef(MEMBER, 'ClientChosenId000012'), message(MEMBER)));
    await assertSucceeds(
      setDoc(messageRef(MEMBER, 'ClientChosenId000013'), { ...message(MEMBER), senderName: 'Morgan Lee' }),
    );
    // The owner has neither: the local part of their email.
    await assertSucceeds(setDoc(messageRef(OWNER, 'ClientChosenId000014'), message(OWNER)));
    await assertFails(
      setDoc(messageRef(OWNER, 'ClientChosenId000015'), {
        ...message(OWNER),
        senderName: `${OWNER}@qupm.test`,
      }),
    );
  });

  it.each([
    ['as someone else', STRANGER, message(MEMBER)],
    ['from outside the channel', STRANGER, message(STRANGER)],
    ['from an admin', ADMIN, message(ADMIN)],
    ['over 4000 characters', MEMBER, message(MEMBER, 'x'.repeat(4001))],
    ['without text', MEMBER, message(MEMBER, '')],
    ['with an extra field', MEMBER, { ...message(MEMBER), pinned: true }],
    ['with a time of its own', MEMBER, { ...message(MEMBER), createdAt: Timestamp.fromMillis(0) }],
    ["under someone else's name (issue #14 part 11)", MEMBER, { ...message(MEMBER), senderName: 'Dana' }],
    ['under a name with spaces around it', MEMBER, { ...message(MEMBER), senderName: ' Morgan ' }],
    ['under an empty name', MEMBER, { ...message(MEMBER), senderName: '' }],
  ])('refuses a message %s', async (_label, uid, data) => {
    await assertFails(setDoc(messageRef(uid, 'ClientChosenId000003'), data));
  });

  it.each([
    ['too short', 'Short0000001'],
    ['too long', 'ClientChosenId0000001'],
    ['with other characters', 'Client-Chosen_Id0001'],
  ])('refuses a message under an id %s', async (_label, id) => {
    await assertFails(setDoc(messageRef(MEMBER, id), message(MEMBER)));
  });

  it('refuses a repeat of an id, even by its sender with the same words: a message is written once', async () => {
    await assertSucceeds(setDoc(messageRef(MEMBER, 'ClientChosenId000004'), message(MEMBER, 'Once')));
    await assertFails(setDoc(messageRef(MEMBER, 'ClientChosenId000004'), message(MEMBER, 'Once')));
    await assertFails(setDoc(messageRef(MEMBER, 'ClientChosenId000004'), message(MEMBER, 'Other words')));
    await assertFails(setDoc(messageRef(OWNER, 'ClientChosenId000004'), message(OWNER, 'Theirs')));
    await assertFails(setDoc(messageRef(OWNER, 'MessageOne0000000001'), message(OWNER, 'Welcome')));
    // What the adapter reads after the denial: the stored message, readable by the channel's people.
    await assertSucceeds(getDoc(messageRef(OWNER, 'ClientChosenId000004')));
  });

  it('never lets a client change or delete a message, or write a channel', async () => {
    const ref = doc(dbOf(OWNER), 'channels', CHANNEL, 'messages', 'MessageOne0000000001');
    await assertFails(updateDoc(ref, { text: 'edited' }));
    await assertFails(deleteDoc(ref));
    await assertFails(updateDoc(doc(dbOf(OWNER), 'channels', CHANNEL), { members: [MEMBER, STRANGER] }));
    await assertFails(setDoc(doc(dbOf(OWNER), 'channels', 'NewChannel0000000001'), { ownerId: OWNER }));
  });
});

describe('editing and deleting messages (issue #13)', () => {
  const HOUR = 60 * 60 * 1000;
  const ref = (uid: string, id: string) => doc(dbOf(uid), 'channels', CHANNEL, 'messages', id);
  const edit = (text: string) => ({ text, editedAt: serverTimestamp(), updatedAt: serverTimestamp() });
  const deletion = () => ({ text: '', deleted: true, updatedAt: serverTimestamp() });

  /** Stores a message of `senderId` sent `hoursAgo` hours ago (and `extra` fields), as functions/ would. */
  const stored = (id: string, senderId: string, hoursAgo: number, extra: object = {}) =>
    env.withSecurityRulesDisabled((context) =>
      setDoc(doc(context.firestore(), 'channels', CHANNEL, 'messages', id), {
        senderId,
        senderName: 'Morgan',
        text: 'Helo',
        createdAt: Timestamp.fromMillis(Date.now() - hoursAgo * HOUR),
        ...extra,
      }),
    );

  it('lets the sender edit the text within 24 hours, with the server time as editedAt and updatedAt', async () => {
    await stored('EditMine000000000001', MEMBER, 23);
    await assertSucceeds(updateDoc(ref(MEMBER, 'EditMine000000000001'), edit('Hello')));
  });

  it.each([
    [
      "someone else's message (the channel owner's included)",
      OWNER,
      'EditTheirs0000000001',
      1,
      {},
      edit('Hijack'),
    ],
    ['a message sent 25 hours ago', MEMBER, 'EditLate000000000001', 25, {}, edit('Too late')],
    ['a deleted message', MEMBER, 'EditGone000000000001', 1, { text: '', deleted: true }, edit('Back')],
    ['an empty text', MEMBER, 'EditEmpty00000000001', 1, {}, edit('')],
    ['a text over 4000 characters', MEMBER, 'EditLong000000000001', 1, {}, edit('x'.repeat(4001))],
    [
      'a time of its own',
      MEMBER,
      'EditTime000000000001',
      1,
      {},
      { ...edit('Hi'), editedAt: Timestamp.fromMillis(0) },
    ],
    ['a change of its sender', MEMBER, 'EditSender0000000001', 1, {}, { ...edit('Hi'), senderId: OWNER }],
    [
      'a change of its time',
      MEMBER,
      'EditCreated000000001',
      1,
      {},
      { ...edit('Hi'), createdAt: serverTimestamp() },
    ],
  ] as const)('refuses an edit of %s', async (_label, uid, id, hoursAgo, extra, data) => {
    await stored(id, MEMBER, hoursAgo, extra);
    await assertFails(updateDoc(ref(uid, id), data));
  });

  it('lets the sender delete at any time, and the channel owner anyone’s message: the text emptied', async () => {
    await stored('DeleteMine0000000001', MEMBER, 24 * 30);
    await assertSucceeds(updateDoc(ref(MEMBER, 'DeleteMine0000000001'), deletion()));
    await stored('DeleteByOwner0000001', MEMBER, 1);
    await assertSucceeds(updateDoc(ref(OWNER, 'DeleteByOwner0000001'), deletion()));
  });

  it("refuses a member deleting the owner's message, a second deletion, a tombstone that keeps its text, an admin", async () => {
    await stored('DeleteOwners00000001', OWNER, 1);
    await assertFails(updateDoc(ref(MEMBER, 'DeleteOwners00000001'), deletion()));
    await assertFails(updateDoc(ref(ADMIN, 'DeleteOwners00000001'), deletion()));
    await stored('DeleteTwice000000001', MEMBER, 1, { text: '', deleted: true });
    await assertFails(updateDoc(ref(MEMBER, 'DeleteTwice000000001'), deletion()));
    await stored('DeleteKeeps000000001', MEMBER, 1);
    await assertFails(updateDoc(ref(MEMBER, 'DeleteKeeps000000001'), { ...deletion(), text: 'Helo' }));
    await assertFails(deleteDoc(ref(MEMBER, 'DeleteKeeps000000001')));
  });

  it('lets a message with a file be deleted only with its attachment removed (issue #13 part 4)', async () => {
    const file = {
      id: 'AttachDoc00000000001',
      kind: 'document',
      name: 'plan.pdf',
      contentType: 'application/pdf',
      size: 1200,
    };
    await stored('DeleteFile0000000001', MEMBER, 1, { attachment: file });
    await assertFails(updateDoc(ref(MEMBER, 'DeleteFile0000000001'), deletion()));
    await assertSucceeds(
      updateDoc(ref(MEMBER, 'DeleteFile0000000001'), { ...deletion(), attachment: deleteField() }),
    );
    // A tombstone never gains one either.
    await stored('DeleteAddFile0000001', MEMBER, 1);
    await assertFails(updateDoc(ref(MEMBER, 'DeleteAddFile0000001'), { ...deletion(), attachment: file }));
  });

  it('allows the live query of changes: updatedAt from a time on, ordered by it', async () => {
    const changes = (uid: string) =>
      query(
        collection(dbOf(uid), 'channels', CHANNEL, 'messages'),
        where('updatedAt', '>=', Timestamp.fromMillis(0)),
        orderBy('updatedAt'),
      );
    await assertSucceeds(getDocs(changes(MEMBER)));
    await assertFails(getDocs(changes(STRANGER)));
  });
});

describe('written by functions only', () => {
  it('lets the consultant read their invitation, and no client write one', async () => {
    await assertSucceeds(getDoc(doc(dbOf(OWNER), 'invitations', 'InvitePending0000001')));
    await assertFails(getDoc(doc(dbOf(STRANGER), 'invitations', 'InvitePending0000001')));
    await assertFails(
      updateDoc(doc(dbOf(OWNER), 'invitations', 'InvitePending0000001'), { status: 'activated' }),
    );
  });

  it('lets the invitee follow the invitations naming their email, and no one else, and never write one', async () => {
    const email = `${MEMBER.toLowerCase()}@qupm.test`;
    const invitee = env.authenticatedContext(MEMBER, { email, email_verified: true }).firestore();
    const mine = (db: ReturnType<typeof nobody>) =>
      query(
        collection(db, 'invitations'),
        where('inviteeEmail', '==', email),
        where('status', '==', 'pending'),
      );
    await assertSucceeds(getDocs(mine(invitee)));
    await assertSucceeds(getDoc(doc(invitee, 'invitations', 'InviteForMember00001')));
    // A query not bound to their email could hold others' invitations.
    await assertFails(getDocs(query(collection(invitee, 'invitations'), where('status', '==', 'pending'))));
    await assertFails(getDoc(doc(invitee, 'invitations', 'InvitePending0000001')));
    // The right email, not confirmed yet: anyone can sign up under someone else's address.
    const unconfirmed = env.authenticatedContext(MEMBER, { email, email_verified: false }).firestore();
    await assertFails(getDocs(mine(unconfirmed)));
    await assertFails(getDoc(doc(unconfirmed, 'invitations', 'InviteForMember00001')));
    const stranger = env
      .authenticatedContext(STRANGER, { email: 'stranger@qupm.test', email_verified: true })
      .firestore();
    await assertFails(getDocs(mine(stranger)));
    await assertFails(getDocs(mine(dbOf(STRANGER))));
    await assertFails(updateDoc(doc(invitee, 'invitations', 'InviteForMember00001'), { status: 'accepted' }));
  });

  it('lets a person read their offers, and no client write one', async () => {
    await assertSucceeds(getDoc(doc(dbOf(MEMBER), 'offers', 'OfferActive000000001')));
    await assertFails(getDoc(doc(dbOf(STRANGER), 'offers', 'OfferActive000000001')));
    await assertFails(
      updateDoc(doc(dbOf(MEMBER), 'offers', 'OfferActive000000001'), { discountPercent: 100 }),
    );
  });

  it('keeps read marks to functions: a person can neither read nor move their own', async () => {
    const mark = doc(dbOf(MEMBER), 'users', MEMBER, 'channelReads', CHANNEL);
    await assertFails(getDoc(mark));
    await assertFails(setDoc(mark, { lastReadAt: serverTimestamp(), lastReadId: 'MessageOne0000000001' }));
  });

  it('keeps pending counts to functions: a person can neither read nor change their own', async () => {
    await assertFails(getDocs(collection(dbOf(MEMBER), 'users', MEMBER, 'pending')));
    await assertFails(updateDoc(doc(dbOf(MEMBER), 'users', MEMBER, 'pending', CHANNEL), { count: 0 }));
    await assertFails(getDocs(collection(dbOf(STRANGER), 'users', MEMBER, 'pending')));
  });
});

// A private consultation (kind 'private', core/privateChannels.ts) between the consultant and one
// client. Decided from the stored channel document: its participants read it and its messages; an admin sees that
// it exists but not its messages; a second client of the consultant's channel gets nothing.
describe('private consultations', () => {
  const PRIVATE = 'PrivateChannel000001';
  const OTHER_CLIENT = 'OtherClientUid000001';

  beforeEach(async () => {
    await env.withSecurityRulesDisabled(async (context) => {
      const db = context.firestore();
      await updateDoc(doc(db, 'channels', CHANNEL), { members: [MEMBER, OTHER_CLIENT] });
      await setDoc(doc(db, 'channels', PRIVATE), {
        channelId: 'private-privatechannel000001',
        ownerId: OWNER,
        title: 'Dana and Morgan',
        description: '',
        members: [MEMBER],
        createdAt: serverTimestamp(),
        kind: 'private',
        names: { [OWNER]: 'Dana', [MEMBER]: 'Morgan' },
      });
      await setDoc(doc(db, 'channels', PRIVATE, 'messages', 'PrivateMessage000001'), {
        senderId: MEMBER,
        senderName: 'Morgan',
        text: 'Between us',
        createdAt: serverTimestamp(),
      });
    });
  });

  const messages = (uid: string) => collection(dbOf(uid), 'channels', PRIVATE, 'messages');
  // Under the sender's own public name (the rules refuse any other): Morgan's nickname, else the local part of
  // the seeded address, which is the uid.
  const newMessage = (uid: string) => ({
    senderId: uid,
    senderName: uid === MEMBER ? 'Morgan' : uid,
    text: 'Hello',
    createdAt: serverTimestamp(),
  });

  it('lets its two participants read and write it', async () => {
    for (const uid of [OWNER, MEMBER]) {
      await assertSucceeds(getDoc(doc(dbOf(uid), 'channels', PRIVATE)));
      await assertSucceeds(getDocs(query(messages(uid), orderBy('createdAt', 'desc'), limit(50))));
    }
    await assertSucceeds(setDoc(doc(messages(MEMBER), 'PrivateMessage000002'), newMessage(MEMBER)));
    await assertSucceeds(setDoc(doc(messages(OWNER), 'PrivateMessage000003'), newMessage(OWNER)));
  });

  it('lets its consultant delete only their own messages (nobody owns it in the sense of managing)', async () => {
    const deletion = { text: '', deleted: true, updatedAt: serverTimestamp() };
    await assertFails(updateDoc(doc(messages(OWNER), 'PrivateMessage000001'), deletion));
    await assertSucceeds(updateDoc(doc(messages(MEMBER), 'PrivateMessage000001'), deletion));
  });

  it('shows an admin that it exists, never its messages', async () => {
    await assertSucceeds(getDoc(doc(dbOf(ADMIN), 'channels', PRIVATE)));
    await assertFails(getDocs(query(messages(ADMIN), orderBy('createdAt', 'desc'), limit(50))));
    await assertFails(getDoc(doc(messages(ADMIN), 'PrivateMessage000001')));
    await assertFails(setDoc(doc(messages(ADMIN), 'PrivateMessage000004'), newMessage(ADMIN)));
  });

  it('gives a third client of the same channel, and a stranger, nothing', async () => {
    for (const uid of [OTHER_CLIENT, STRANGER]) {
      await assertFails(getDoc(doc(dbOf(uid), 'channels', PRIVATE)));
      await assertFails(getDocs(query(messages(uid), orderBy('createdAt', 'desc'), limit(50))));
      await assertFails(getDoc(doc(messages(uid), 'PrivateMessage000001')));
      await assertFails(setDoc(doc(messages(uid), 'PrivateMessage000005'), newMessage(uid)));
    }
  });

  it('lets no client create or change one (the open_private_channel callable does)', async () => {
    await assertFails(
      setDoc(doc(dbOf(MEMBER), 'channels', 'PrivateChannel000002'), {
        channelId: 'private-x',
        ownerId: OWNER,
        title: '',
        description: '',
        members: [MEMBER],
        createdAt: serverTimestamp(),
        kind: 'private',
      }),
    );
    await assertFails(updateDoc(doc(dbOf(OWNER), 'channels', PRIVATE), { members: [MEMBER, STRANGER] }));
  });
});
