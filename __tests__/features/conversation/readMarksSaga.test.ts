import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { eventChannel } from 'redux-saga';
import { call, race, take } from 'redux-saga/effects';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import { createAttentionChannel, createPageHideChannel, isAttentive } from '@/platform/attention';
import type { AttentionEvent } from '@/platform/attention';
import type { ConversationStore, StoredReadMark } from '@/platform/conversationStore';
import { runReadMarks } from '@/features/conversation/readMarksSaga';
import { connectivityChanged } from '@/store/appSlice';
import { channelOpened } from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import { messagesLoaded, messagesRequested } from '@/store/conversationSlice';
import { conversationsRestored } from '@/store/outboxSlice';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { buildUserState, accountLoaded, signedIn } from '@/store/userSlice';
import { createFakeBackend } from '../../support/fakeBackend';
import { createVirtualTime } from '../../support/virtualTime';

const ME = 'uidMember00000000001';
const DANA = 'uidDana0000000000001';
const A = 'ChannelMarkA00000001';
const B = 'ChannelMarkB00000001';
const me = { uid: ME, email: 'me@example.com', displayName: 'Me' };
const msg = (n: number, channelId = A): ChatMessage => ({
  id: `Mark${String(n).padStart(16, '0')}`,
  channelId,
  senderId: DANA,
  senderName: 'Dana',
  text: `m${n}`,
  createdAt: 1_000 + n,
});

function deviceStore() {
  const marks = new Map<string, StoredReadMark>();
  const store: ConversationStore = {
    load: async () => ({ outbox: [], drafts: [], readMarks: [], dropped: 0 }),
    putOutbox: async () => undefined,
    deleteOutbox: async () => undefined,
    putDraft: async () => undefined,
    putReadMark: async (mark) => void marks.set(mark.channelId, mark),
    deleteReadMark: async (_uid, channelId, messageId) => {
      if (marks.get(channelId)?.messageId === messageId) marks.delete(channelId);
    },
    clear: async () => marks.clear(),
  };
  return { store, marks };
}

function sources() {
  let attention: ((event: AttentionEvent) => void) | null = null;
  let hide: (() => void) | null = null;
  return {
    attention: eventChannel<AttentionEvent>((emit) => {
      attention = emit;
      return () => (attention = null);
    }),
    pageHide: eventChannel<{ hidden: true }>((emit) => {
      hide = () => emit({ hidden: true });
      return () => (hide = null);
    }),
    look: (attentive: boolean) => attention?.({ attentive }),
    hide: () => hide?.(),
  };
}

function stateWith(openId: string | null, messages: ChatMessage[]): RootState {
  let state = rootReducer(undefined, signedIn({ authUser: me }));
  state = rootReducer(state, accountLoaded(buildUserState(me, null, { isAdmin: false })));
  state = rootReducer(state, messagesRequested({ channelId: A }));
  state = rootReducer(state, messagesLoaded({ channelId: A, messages }));
  return rootReducer(state, channelOpened({ id: openId }));
}

const STOP = 'test/stop';
function* session(backend: Backend, store: ConversationStore) {
  yield race({ run: call(runReadMarks, ME, backend, store), stop: take(STOP) });
}

function run(state: RootState, { attentive = true, fail = false } = {}) {
  const backend = createFakeBackend();
  const sent: Array<[string, string, { leaving?: boolean } | undefined]> = [];
  backend.channels.markRead.mockImplementation(
    async (id: string, upTo: string, options?: { leaving?: boolean }) => {
      if (fail) throw new BackendError('UNAVAILABLE', 'offline');
      sent.push([id, upTo, options]);
    },
  );
  backend.callables.clearPendingNotifications.mockResolvedValue({ success: true });
  const device = deviceStore();
  const src = sources();
  const time = createVirtualTime();
  const saga = expectSaga(session, backend as unknown as Backend, device.store)
    .withReducer(rootReducer, state)
    .provide([
      time.provider,
      [matchers.call.fn(isAttentive), attentive],
      [matchers.call.fn(createAttentionChannel), src.attention],
      [matchers.call.fn(createPageHideChannel), src.pageHide],
    ]);
  const pending = saga.run({ timeout: 5_000, silenceTimeout: true });
  return {
    backend,
    sent,
    device,
    src,
    time,
    saga,
    pending,
    setFail: (value: boolean) => (fail = value),
  };
}

describe('runReadMarks', () => {
  it('marks what the person sees in the open channel, at most once a second through a burst', async () => {
    const t = run(stateWith(A, [msg(1)]));
    await t.time.flush();
    expect(t.sent).toEqual([[A, msg(1).id, { leaving: false }]]);
    expect(t.backend.callables.clearPendingNotifications).toHaveBeenCalledWith({ userId: ME });
    for (let i = 2; i <= 6; i += 1) {
      t.saga.dispatch(messagesArrived({ messages: [msg(i)], ownUid: ME }));
      await t.time.advance(200);
    }
    await t.time.advance(1_000);
    // A burst of five over a second: the first then the newest, not five marks.
    expect(t.sent.length).toBeLessThanOrEqual(3);
    expect(t.sent.at(-1)).toEqual([A, msg(6).id, { leaving: false }]);
    t.saga.dispatch({ type: STOP });
    await t.pending;
    expect(t.device.marks.size).toBe(0);
  });

  it('marks nothing while the person is not looking, and what is there once they look again', async () => {
    const t = run(stateWith(A, [msg(1)]), { attentive: false });
    await t.time.flush();
    t.saga.dispatch(messagesArrived({ messages: [msg(2)], ownUid: ME }));
    await t.time.advance(2_000);
    expect(t.sent).toEqual([]);
    t.src.look(true);
    await t.time.advance(0);
    expect(t.sent).toEqual([[A, msg(2).id, { leaving: false }]]);
    t.saga.dispatch({ type: STOP });
    await t.pending;
  });

  it('marks nothing in a channel that is not open', async () => {
    const t = run(stateWith(null, [msg(1)]));
    await t.time.advance(2_000);
    expect(t.sent).toEqual([]);
    t.saga.dispatch({ type: STOP });
    await t.pending;
  });

  it('sends the mark at once when the person leaves the channel, and with keepalive when the page hides', async () => {
    const t = run(stateWith(A, [msg(1)]));
    await t.time.flush();
    t.saga.dispatch(messagesArrived({ messages: [msg(2)], ownUid: ME }));
    await t.time.flush();
    t.saga.dispatch(channelOpened({ id: B }));
    await t.time.flush();
    expect(t.sent.at(-1)).toEqual([A, msg(2).id, { leaving: false }]);
    t.saga.dispatch(channelOpened({ id: A }));
    t.saga.dispatch(messagesArrived({ messages: [msg(3)], ownUid: ME }));
    await t.time.flush();
    t.src.hide();
    await t.time.flush();
    expect(t.sent).toContainEqual([A, msg(3).id, { leaving: true }]);
    t.saga.dispatch({ type: STOP });
    await t.pending;
  });

  it('keeps a mark that could not be sent, on the device too, and sends it when the network is back', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = run(stateWith(A, [msg(1)]), { fail: true });
    await t.time.advance(2_000);
    expect(t.device.marks.get(A)?.messageId).toBe(msg(1).id);
    expect(warn).toHaveBeenCalled();
    t.setFail(false);
    t.saga.dispatch(connectivityChanged({ online: true }));
    await t.time.flush();
    expect(t.sent).toEqual([[A, msg(1).id, { leaving: false }]]);
    expect(t.device.marks.size).toBe(0);
    t.saga.dispatch({ type: STOP });
    const { storeState } = await t.pending;
    expect((storeState as RootState).readMarks.pending).toEqual({});
  });

  it('sends the marks a previous page could not, once they are restored', async () => {
    const t = run(stateWith(null, []));
    await t.time.flush();
    t.saga.dispatch(
      conversationsRestored({
        outbox: [],
        drafts: [],
        readMarks: [{ uid: ME, channelId: B, messageId: msg(9, B).id, createdAt: msg(9, B).createdAt }],
        dropped: 0,
      }),
    );
    await t.time.flush();
    expect(t.sent).toEqual([[B, msg(9, B).id, { leaving: false }]]);
    t.saga.dispatch({ type: STOP });
    await t.pending;
  });

  it('never sends an older mark after a newer one', async () => {
    const t = run(stateWith(A, [msg(5)]));
    await t.time.flush();
    t.saga.dispatch(messagesLoaded({ channelId: A, messages: [msg(3)] }));
    await t.time.advance(2_000);
    expect(t.sent).toEqual([[A, msg(5).id, { leaving: false }]]);
    t.saga.dispatch({ type: STOP });
    await t.pending;
  });
});
