import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { eventChannel } from 'redux-saga';
import { call, race, take } from 'redux-saga/effects';
import { BackendError } from '@/backend/ports';
import type { Backend, NewMessage } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import { createPageHideChannel } from '@/platform/attention';
import type {
  ConversationStore,
  RestoredConversations,
  StoredOutboxEntry,
} from '@/platform/conversationStore';
import { NOT_SENT_YET, retryDelay, runOutbox } from '@/features/conversation/outboxSaga';
import { connectivityChanged } from '@/store/appSlice';
import { signOutRequested } from '@/store/authSlice';
import { messagesRequested } from '@/store/conversationSlice';
import {
  draftChanged,
  messageSendRequested,
  outboxDeleteRequested,
  outboxRetryRequested,
} from '@/store/outboxSlice';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { buildUserState, accountLoaded, signedIn } from '@/store/userSlice';
import { createFakeBackend } from '../../support/fakeBackend';
import { createVirtualTime } from '../../support/virtualTime';

const ME = 'uidMember00000000001';
const CHANNEL = 'ChannelOut0000000001';
const me = { uid: ME, email: 'me@example.com', displayName: 'Me' };

/** The device's store, in memory, recording what was asked of it (the IndexedDB edge has its own tests). */
function memoryStore(initial: Partial<RestoredConversations> = {}) {
  const outbox = new Map<string, StoredOutboxEntry>((initial.outbox ?? []).map((e) => [e.id, e]));
  const drafts = new Map<string, string>((initial.drafts ?? []).map((d) => [d.channelId, d.text]));
  const log: string[] = [];
  const store: ConversationStore = {
    // As the real store: outbox entries in the order they were written.
    load: async () => ({
      outbox: [...outbox.values()].sort((a, b) => a.createdAt - b.createdAt),
      drafts: [...drafts.entries()].map(([channelId, text]) => ({ uid: ME, channelId, text })),
      readMarks: [],
      dropped: initial.dropped ?? 0,
    }),
    putOutbox: async (entry) => {
      log.push(`put ${entry.id} ${entry.status}`);
      outbox.set(entry.id, entry);
    },
    deleteOutbox: async (id) => {
      log.push(`delete ${id}`);
      outbox.delete(id);
    },
    putDraft: async (draft) => {
      log.push(`draft ${draft.channelId}=${draft.text}`);
      if (draft.text === '') drafts.delete(draft.channelId);
      else drafts.set(draft.channelId, draft.text);
    },
    putReadMark: async () => undefined,
    deleteReadMark: async () => undefined,
    clear: async () => {
      log.push('clear');
      outbox.clear();
      drafts.clear();
    },
  };
  return { store, outbox, drafts, log };
}

const stored = (id: string, text: string): ChatMessage => ({
  id,
  channelId: CHANNEL,
  senderId: ME,
  senderName: 'Me',
  text,
  createdAt: 7_000,
});

function signedInState(): RootState {
  let state = rootReducer(undefined, signedIn({ authUser: me }));
  state = rootReducer(state, accountLoaded(buildUserState(me, null, { isAdmin: false })));
  return rootReducer(state, messagesRequested({ channelId: CHANNEL }));
}

const send = (text: string, id: string, createdAt = 1) => ({
  type: messageSendRequested.type,
  payload: { channelId: CHANNEL, text, id, createdAt },
});

/** A page-hide source the test fires. */
function pageHide() {
  let fire: (() => void) | null = null;
  const channel = eventChannel<{ hidden: true }>((emit) => {
    fire = () => emit({ hidden: true });
    return () => (fire = null);
  });
  return { channel, hide: () => fire?.() };
}

const STOP = 'test/stop';
function* session(backend: Backend, store: ConversationStore) {
  yield race({ run: call(runOutbox, ME, backend, store), stop: take(STOP) });
}

function run(
  backend: ReturnType<typeof createFakeBackend>,
  store: ConversationStore,
  state = signedInState(),
) {
  const time = createVirtualTime();
  const hide = pageHide();
  const saga = expectSaga(session, backend as unknown as Backend, store)
    .withReducer(rootReducer, state)
    .provide([time.provider, [matchers.call.fn(createPageHideChannel), hide.channel]]);
  const pending = saga.run({ timeout: 5_000, silenceTimeout: true });
  return { saga, time, pending, hide };
}

const A = 'MsgOutbox00000000001';
const B = 'MsgOutbox00000000002';

describe('runOutbox', () => {
  it('keeps a message on the device before it is sent, sends it under its id, and forgets it once acknowledged', async () => {
    const backend = createFakeBackend();
    const device = memoryStore();
    backend.messages.sendMessage.mockImplementation(async (_c: string, m: NewMessage) => {
      device.log.push(`send ${m.id}`);
      return stored(m.id, m.text);
    });
    const { saga, time, pending } = run(backend, device.store);
    await time.flush();
    saga.dispatch(send('Hello', A));
    await time.flush();
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    const state = storeState as RootState;
    expect(device.log.filter((l) => !l.startsWith('draft'))).toEqual([
      `put ${A} pending`,
      `send ${A}`,
      `delete ${A}`,
    ]);
    expect(backend.messages.sendMessage).toHaveBeenCalledWith(CHANNEL, { id: A, text: 'Hello' });
    expect(state.outbox.entries).toEqual([]);
    expect(state.conversation.byChannel[CHANNEL]?.messages).toEqual([stored(A, 'Hello')]);
  });

  it('retries a send that fails while offline, waiting longer each time, at once when the network is back, in order', async () => {
    const backend = createFakeBackend();
    const device = memoryStore();
    const attempts: string[] = [];
    let failures = 2;
    backend.messages.sendMessage.mockImplementation(async (_c: string, m: NewMessage) => {
      attempts.push(m.id);
      if (m.id === A && failures-- > 0) throw new BackendError('UNAVAILABLE', "Can't reach QuPM right now.");
      return stored(m.id, m.text);
    });
    const { saga, time, pending } = run(backend, device.store);
    await time.flush();
    saga.dispatch(send('first', A, 1));
    saga.dispatch(send('second', B, 2));
    await time.flush();
    expect(attempts).toEqual([A]);
    await time.advance(retryDelay(1));
    expect(attempts).toEqual([A, A]);
    await time.advance(retryDelay(2) - 1);
    expect(attempts).toEqual([A, A]);
    saga.dispatch(connectivityChanged({ online: true }));
    await time.flush();
    expect(attempts).toEqual([A, A, A, B]);
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as RootState).conversation.byChannel[CHANNEL]?.messages.map((m) => m.id)).toEqual([
      A,
      B,
    ]);
    expect(retryDelay(1)).toBe(1_000);
    expect(retryDelay(2)).toBe(2_000);
    expect(retryDelay(9)).toBe(30_000);
  });

  it('treats a send that does not answer as failed, says so, and sends it again under the same id', async () => {
    const backend = createFakeBackend();
    const device = memoryStore();
    backend.messages.sendMessage
      .mockImplementationOnce(() => new Promise(() => undefined))
      .mockImplementation(async (_c: string, m: NewMessage) => stored(m.id, m.text));
    const { saga, time, pending } = run(backend, device.store);
    await time.flush();
    saga.dispatch(send('slow', A));
    await time.advance(15_000);
    saga.dispatch({ type: 'test/peek' });
    expect(backend.messages.sendMessage).toHaveBeenCalledTimes(1);
    await time.advance(retryDelay(1));
    saga.dispatch({ type: STOP });
    const { storeState, effects } = await pending;
    expect(backend.messages.sendMessage.mock.calls.map((c) => (c[1] as NewMessage).id)).toEqual([A, A]);
    expect(effects.put.map((e) => e.payload.action)).toContainEqual({
      type: 'outbox/outboxSendPostponed',
      payload: { id: A, error: NOT_SENT_YET },
    });
    expect((storeState as RootState).outbox.entries).toEqual([]);
  });

  it('shows a refused message as not sent and lets the next one go; Retry sends it, Delete forgets it', async () => {
    const backend = createFakeBackend();
    const device = memoryStore();
    let refuse = true;
    backend.messages.sendMessage.mockImplementation(async (_c: string, m: NewMessage) => {
      if (m.id === A && refuse) {
        throw new BackendError(
          'PERMISSION_DENIED',
          'Only the channel owner and its members can send messages here.',
        );
      }
      return stored(m.id, m.text);
    });
    const { saga, time, pending } = run(backend, device.store);
    await time.flush();
    saga.dispatch(send('refused', A, 1));
    saga.dispatch(send('fine', B, 2));
    await time.flush();
    expect(device.outbox.get(A)).toMatchObject({
      status: 'refused',
      error: 'Only the channel owner and its members can send messages here.',
    });
    expect(device.outbox.has(B)).toBe(false);
    refuse = false;
    saga.dispatch(outboxRetryRequested({ id: A }));
    await time.flush();
    expect(device.outbox.has(A)).toBe(false);
    saga.dispatch(send('refused again', 'MsgOutbox00000000003', 3));
    saga.dispatch({ type: STOP });
    await pending;
    // B went while A waited for the person; A went again when they asked.
    expect(backend.messages.sendMessage.mock.calls.map((c) => (c[1] as NewMessage).id).slice(0, 3)).toEqual([
      A,
      B,
      A,
    ]);
  });

  it('forgets a refused message the person deletes', async () => {
    const backend = createFakeBackend();
    const device = memoryStore();
    backend.messages.sendMessage.mockRejectedValue(new BackendError('INVALID_ARGUMENT', 'text: too long'));
    const { saga, time, pending } = run(backend, device.store);
    await time.flush();
    saga.dispatch(send('x', A));
    await time.flush();
    saga.dispatch(outboxDeleteRequested({ id: A }));
    await time.flush();
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect(device.outbox.size).toBe(0);
    expect((storeState as RootState).outbox.entries).toEqual([]);
  });

  it('sends what a previous page left unsent, once, in order, and keeps what was refused for the person', async () => {
    const backend = createFakeBackend();
    const left = (
      id: string,
      createdAt: number,
      status: 'pending' | 'refused' = 'pending',
    ): StoredOutboxEntry => ({
      id,
      uid: ME,
      channelId: CHANNEL,
      text: `left ${id}`,
      createdAt,
      status,
      error: status === 'refused' ? 'Not a member.' : null,
    });
    const device = memoryStore({
      outbox: [left(B, 2), left(A, 1), left('MsgOutbox00000000009', 3, 'refused')],
    });
    // The backend already had A (the page closed before its answer): it answers the stored message.
    backend.messages.sendMessage.mockImplementation(async (_c: string, m: NewMessage) =>
      stored(m.id, m.id === A ? 'what the backend kept' : m.text),
    );
    const { saga, time, pending } = run(backend, device.store);
    await time.flush();
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    const state = storeState as RootState;
    expect(backend.messages.sendMessage.mock.calls.map((c) => (c[1] as NewMessage).id)).toEqual([A, B]);
    expect(state.conversation.byChannel[CHANNEL]?.messages.map((m) => m.text)).toEqual([
      'what the backend kept',
      `left ${B}`,
    ]);
    expect(state.outbox.entries.map((e) => [e.id, e.status])).toEqual([['MsgOutbox00000000009', 'refused']]);
  });

  it('writes drafts a moment after typing stops and at once when the page hides; a sent message clears its draft', async () => {
    const backend = createFakeBackend();
    const device = memoryStore({ drafts: [{ uid: ME, channelId: 'ChannelOld0000000001', text: 'kept' }] });
    backend.messages.sendMessage.mockImplementation(async (_c: string, m: NewMessage) =>
      stored(m.id, m.text),
    );
    const { saga, time, pending, hide } = run(backend, device.store);
    await time.flush();
    saga.dispatch(draftChanged({ channelId: CHANNEL, text: 'Hel' }));
    saga.dispatch(draftChanged({ channelId: CHANNEL, text: 'Hello' }));
    await time.advance(200);
    expect(device.drafts.get(CHANNEL)).toBeUndefined();
    await time.advance(300);
    expect(device.drafts.get(CHANNEL)).toBe('Hello');
    saga.dispatch(draftChanged({ channelId: CHANNEL, text: 'Hello there' }));
    hide.hide();
    await time.flush();
    expect(device.drafts.get(CHANNEL)).toBe('Hello there');
    saga.dispatch(send('Hello there', A));
    await time.advance(500);
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect(device.drafts.has(CHANNEL)).toBe(false);
    expect(device.drafts.get('ChannelOld0000000001')).toBe('kept');
    expect((storeState as RootState).outbox.drafts).toEqual({ ChannelOld0000000001: 'kept' });
  });

  it('forgets what this device kept for the account when the person signs out', async () => {
    const backend = createFakeBackend();
    const device = memoryStore();
    backend.messages.sendMessage.mockRejectedValue(new BackendError('UNAVAILABLE', 'offline'));
    const { saga, time, pending } = run(backend, device.store);
    await time.flush();
    saga.dispatch(send('unsent', A));
    await time.flush();
    saga.dispatch(signOutRequested());
    await time.flush();
    saga.dispatch({ type: STOP });
    await pending;
    expect(device.log).toContain('clear');
    expect(device.outbox.size).toBe(0);
  });
});
