// The Firebase adapter's live conversation end to end on the contract suite's Firebase (support/firebaseSdk.ts:
// the client SDK with latency-compensated writes, live queries and a network switch per app, over one in-memory
// Firestore whose server timestamps carry microseconds, with functions/'s real trigger behind it): what the port
// contract states for every backend, pushed to where Firestore's own behaviour matters — a burst from several
// senders, this device's own pending writes, a send made offline, two devices racing on one id.
import type { Backend } from '@/backend/ports';
import { newDocumentId } from '@core/ids';
import { compareMessages, sinceOf } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { createFirebaseHarness } from '../../contract/support/firebaseHarness';
import type { Harness } from '../../contract/support/harness';
import { CHANNELS, MESSAGES, PEOPLE } from '../../contract/support/world';
import type * as Sdk from '../../contract/support/firebaseSdk';
import { eventually as passes } from '../../support/eventually';

jest.mock(
  'firebase/app',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().app,
);
jest.mock(
  'firebase/auth',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().auth,
);
jest.mock(
  'firebase/firestore',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().firestore,
);
jest.mock(
  'firebase/functions',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().functions,
);
jest.mock(
  'firebase/messaging',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().messaging,
);

const STUDIO = CHANNELS.studio.id;

let h: Harness;
beforeEach(async () => {
  h = await createFirebaseHarness();
});
afterEach(() => h.close());

/** Waits until `check` passes, failing with its last error (Date.now is the harness's clock: real time here). */
const eventually = (check: () => void) => passes(check, { timeoutMs: 3000, everyMs: 10 });

async function subscribe(backend: Backend) {
  const held = await backend.messages.listMessages(STUDIO);
  const received: ChatMessage[] = [];
  const batches: ChatMessage[][] = [];
  const stop = backend.messages.subscribeMessages(
    STUDIO,
    sinceOf(held, CHANNELS.studio.createdAt),
    (batch) => {
      batches.push(batch);
      received.push(...batch);
    },
  );
  return { received, batches, stop };
}

function status(backend: Backend, wanted: string): Promise<void> {
  return new Promise((resolve) => {
    let stop: (() => void) | null = null;
    let done = false;
    stop = backend.live.subscribeStatus((now) => {
      if (now !== wanted || done) return;
      done = true;
      queueMicrotask(() => stop?.());
      resolve();
    });
  });
}

const ids = (messages: ChatMessage[]) => messages.map((m) => m.id);

it('delivers a 200-message burst from four senders to an open subscription, each once, each batch in order', async () => {
  const member = await h.as('member');
  const live = await subscribe(member);
  await status(member, 'live');
  const senders = await Promise.all([h.as('consultant'), h.as('member'), h.as('consultant'), h.as('member')]);
  const sent: ChatMessage[] = [];
  // 50 rounds of four concurrent sends; the clock moves every other round, so many share a millisecond.
  for (let round = 0; round < 50; round += 1) {
    if (round % 2 === 0) h.advance(1);
    sent.push(
      ...(await Promise.all(
        senders.map((sender, i) =>
          sender.messages.sendMessage(STUDIO, { id: newDocumentId(), text: `round ${round} from ${i}` }),
        ),
      )),
    );
  }
  await h.settle();
  await eventually(() => expect(live.received).toHaveLength(200));
  expect(new Set(ids(live.received)).size).toBe(200);
  for (const batch of live.batches) expect([...batch].sort(compareMessages)).toStrictEqual(batch);
  expect([...live.received].sort(compareMessages)).toStrictEqual([...sent].sort(compareMessages));
  // What the subscriber holds is what a fresh read pages through.
  expect(await member.messages.listMessages(STUDIO, { limit: 100 })).toStrictEqual(
    [...MESSAGES, ...sent].sort(compareMessages).slice(-100),
  );
  live.stop();
});

it("delivers this device's own message once, after the server has confirmed it, as sendMessage answered it", async () => {
  const member = await h.as('member');
  const live = await subscribe(member);
  await status(member, 'live');
  const mine = await member.messages.sendMessage(STUDIO, { id: newDocumentId(), text: 'My own' });
  await h.settle();
  await eventually(() => expect(live.received).toStrictEqual([mine]));
  h.advance(5);
  const again = await member.messages.sendMessage(STUDIO, { id: mine.id, text: 'A retry with other words' });
  expect(again).toStrictEqual(mine);
  await h.settle();
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(live.received).toStrictEqual([mine]);
  live.stop();
});

it('sends a message written while offline once the network is back: stored once, counted once, delivered once', async () => {
  const member = await h.as('member');
  // As the app does at sign-in: the person's own document, which also gives the name their messages carry.
  await member.users.getUser(PEOPLE.member.uid);
  const consultant = await h.as('consultant');
  const watching = await subscribe(consultant);
  await status(consultant, 'live');

  h.disconnect(member);
  const id = newDocumentId();
  let answered: ChatMessage | null = null;
  const sending = member.messages
    .sendMessage(STUDIO, { id, text: 'Written on the train' })
    .then((message) => {
      answered = message;
      return message;
    });
  await new Promise((resolve) => setTimeout(resolve, 30));
  await h.settle();
  expect(answered).toBeNull();
  expect(watching.received).toEqual([]);

  h.advance(60_000);
  h.reconnect(member);
  const sent = await sending;
  await h.settle();
  expect(sent).toMatchObject({ id, senderId: PEOPLE.member.uid, text: 'Written on the train' });
  await eventually(() => expect(watching.received).toStrictEqual([sent]));
  // The outbox retries after a reload that lost the acknowledgement: the same message, nothing new.
  const retried = await (
    await h.as('member')
  ).messages.sendMessage(STUDIO, { id, text: 'Written on the train' });
  expect(retried).toStrictEqual(sent);
  await h.settle();
  expect(await h.pendingCounts(PEOPLE.consultant.uid)).toEqual({ [STUDIO]: 1 });
  watching.stop();
});

it('stores one message when two devices of one person race on the same id, and both answer it', async () => {
  const phone = await h.as('member');
  const laptop = await h.as('member');
  const id = newDocumentId();
  const [a, b] = await Promise.all([
    phone.messages.sendMessage(STUDIO, { id, text: 'From the phone' }),
    laptop.messages.sendMessage(STUDIO, { id, text: 'From the laptop' }),
  ]);
  expect(b).toStrictEqual(a);
  await h.settle();
  const listed = await phone.messages.listMessages(STUDIO);
  expect(listed.filter((m) => m.id === id)).toStrictEqual([a]);
  expect(await h.pendingCounts(PEOPLE.consultant.uid)).toEqual({ [STUDIO]: 1 });
});

it("moves the read mark forward only, and counts by id within the marked message's millisecond", async () => {
  const consultant = await h.as('consultant');
  const member = await h.as('member');
  h.advance(1000);
  // Five in one millisecond, stored in an order unrelated to their ids.
  const burst: ChatMessage[] = [];
  for (let i = 0; i < 5; i += 1) {
    burst.push(await consultant.messages.sendMessage(STUDIO, { id: newDocumentId(), text: `b${i}` }));
  }
  await h.settle();
  const ordered = [...burst].sort(compareMessages);
  await member.channels.markRead(STUDIO, ordered[1]?.id ?? '');
  expect((await member.channels.listOverview())[0]?.unread).toBe(3);
  await member.channels.markRead(STUDIO, ordered[0]?.id ?? '');
  expect((await member.channels.listOverview())[0]?.unread).toBe(3);
  await member.channels.markRead(STUDIO, ordered[4]?.id ?? '');
  expect((await member.channels.listOverview())[0]?.unread).toBe(0);
  expect((await member.channels.listOverview())[0]?.lastMessage).toStrictEqual(ordered[4]);
});
