// firestore.rules for replies and reactions (core/replies.ts, core/reactions.ts) on the Firestore emulator: a reply
// quotes a message of its own channel, not deleted, under its sender's id and name; a person changes only their
// own key of a message's reactions, to one of the set or away; a deletion takes the reactions with it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { deleteField, doc, serverTimestamp, setDoc, updateDoc, writeBatch } from 'firebase/firestore';
import { REACTIONS } from '../../../core/reactions';

const OWNER = 'ConsultantUid0000001';
const MEMBER = 'MemberUid00000000001';
const STRANGER = 'StrangerUid000000001';
const CHANNEL = 'ChannelStudio0000001';
const OTHER = 'ChannelClinic0000001';
const ORIGINAL = 'MessageOne0000000001';
const ELSEWHERE = 'MessageClinic0000001';

let env: RulesTestEnvironment;

beforeAll(async () => {
  env = await initializeTestEnvironment({
    projectId: 'demo-qupm-replies',
    firestore: { rules: readFileSync(path.resolve(__dirname, '../../../firestore.rules'), 'utf8') },
  });
});

afterAll(() => env.cleanup());

beforeEach(async () => {
  await env.clearFirestore();
  await env.withSecurityRulesDisabled(async (context) => {
    const db = context.firestore();
    const batch = writeBatch(db);
    const user = (uid: string, extra: object = {}) =>
      batch.set(doc(db, 'users', uid), {
        email: `${uid}@qupm.test`,
        isOwner: false,
        notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
        ...extra,
      });
    user(OWNER, { isOwner: true, nickname: 'Dana' });
    user(MEMBER, { nickname: 'Morgan' });
    user(STRANGER);
    const channel = (id: string, members: string[]) =>
      batch.set(doc(db, 'channels', id), {
        channelId: id.toLowerCase(),
        ownerId: OWNER,
        title: id,
        description: '',
        members,
        createdAt: serverTimestamp(),
      });
    channel(CHANNEL, [MEMBER]);
    channel(OTHER, [MEMBER]);
    const message = (channelId: string, id: string, extra: object = {}) =>
      batch.set(doc(db, 'channels', channelId, 'messages', id), {
        senderId: OWNER,
        senderName: 'Dana',
        text: 'Welcome',
        createdAt: serverTimestamp(),
        ...extra,
      });
    message(CHANNEL, ORIGINAL);
    message(CHANNEL, 'MessageGone000000001', { text: '', deleted: true });
    message(OTHER, ELSEWHERE);
    await batch.commit();
  });
});

const dbOf = (uid: string) => env.authenticatedContext(uid).firestore();
const quote = (extra: object = {}) => ({
  id: ORIGINAL,
  senderId: OWNER,
  senderName: 'Dana',
  snippet: 'Welcome',
  ...extra,
});
const reply = (replyTo: object) => ({
  senderId: MEMBER,
  senderName: 'Morgan',
  text: 'Thanks',
  createdAt: serverTimestamp(),
  replyTo,
});
const newMessage = (uid: string, id: string) => doc(dbOf(uid), 'channels', CHANNEL, 'messages', id);

describe('replies', () => {
  it('lets a member reply to a message of the same channel, quoting its sender and a snippet', async () => {
    await assertSucceeds(setDoc(newMessage(MEMBER, 'ReplyGood00000000001'), reply(quote())));
  });

  it.each([
    ['a message of another channel', quote({ id: ELSEWHERE })],
    ['a message that does not exist', quote({ id: 'NoSuchMessage0000001' })],
    ['a deleted message', quote({ id: 'MessageGone000000001', snippet: 'x' })],
    ['someone else as its sender', quote({ senderId: MEMBER })],
    ['another name for its sender', quote({ senderName: 'Not Dana' })],
    ['an empty snippet', quote({ snippet: '' })],
    ['a snippet over 120 characters', quote({ snippet: 'x'.repeat(121) })],
    ['a field of its own', quote({ extra: true })],
    ['a quote that is no map', 'MessageOne0000000001'],
  ] as const)('refuses a reply quoting %s', async (_label, replyTo) => {
    await assertFails(setDoc(newMessage(MEMBER, 'ReplyBad000000000001'), reply(replyTo as object)));
  });
});

describe('reactions', () => {
  const original = (uid: string) => doc(dbOf(uid), 'channels', CHANNEL, 'messages', ORIGINAL);
  const react = (uid: string, value: unknown) =>
    updateDoc(original(uid), { [`reactions.${uid}`]: value, updatedAt: serverTimestamp() });

  it('lets each person of the channel set, replace and take back their own reaction, any of the set', async () => {
    for (const emoji of REACTIONS) await assertSucceeds(react(MEMBER, emoji));
    await assertSucceeds(react(OWNER, '❤️'));
    await assertSucceeds(react(MEMBER, deleteField()));
  });

  it('refuses a reaction outside the set, someone else’s key, a stranger, a deleted message, an old version', async () => {
    await assertFails(react(MEMBER, '🍕'));
    await assertFails(react(MEMBER, 'x'.repeat(1000)));
    await assertFails(react(MEMBER, { emoji: '👍' }));
    await assertSucceeds(react(OWNER, '👍'));
    await assertFails(
      updateDoc(original(MEMBER), { [`reactions.${OWNER}`]: deleteField(), updatedAt: serverTimestamp() }),
    );
    await assertFails(updateDoc(original(MEMBER), { reactions: {}, updatedAt: serverTimestamp() }));
    await assertFails(react(STRANGER, '👍'));
    await assertFails(updateDoc(original(MEMBER), { [`reactions.${MEMBER}`]: '👍' }));
    await assertFails(
      updateDoc(doc(dbOf(MEMBER), 'channels', CHANNEL, 'messages', 'MessageGone000000001'), {
        [`reactions.${MEMBER}`]: '👍',
        updatedAt: serverTimestamp(),
      }),
    );
    await assertFails(
      updateDoc(original(MEMBER), {
        [`reactions.${MEMBER}`]: '👍',
        text: 'Hijack',
        updatedAt: serverTimestamp(),
      }),
    );
  });

  it('lets a deletion take the reactions with it, and no deletion keep them', async () => {
    await assertSucceeds(react(MEMBER, '👍'));
    const deletion = { text: '', deleted: true, updatedAt: serverTimestamp() };
    await assertFails(updateDoc(original(OWNER), deletion));
    await assertSucceeds(updateDoc(original(OWNER), { ...deletion, reactions: deleteField() }));
  });
});
