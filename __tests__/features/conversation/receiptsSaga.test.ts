// Receipts and typing for a session, with the backend faked at its port and time virtual: typing signals are
// throttled (a burst of keystrokes is a few requests), a typer shows until a few seconds after their last signal,
// or their message, or a dropped connection; delivered marks follow what reaches the device, at most once a second;
// the open channel's receipts land in the store; the settings switch saves or goes back with words.
import { expectSaga } from 'redux-saga-test-plan';
import { call, race, take } from 'redux-saga/effects';
import { BackendError } from '@/backend/ports';
import type { Backend, TypingSignal } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import type { Receipt } from '@core/receipts';
import { runReceipts } from '@/features/conversation/receiptsSaga';
import { channelOpened } from '@/store/channelsSlice';
import { liveStatusChanged } from '@/store/liveSlice';
import { messagesArrived } from '@/store/messages';
import { draftChanged } from '@/store/outboxSlice';
import {
  receiptSettingsRequested,
  selectReceipts,
  selectReceiptSettings,
  selectTypingNames,
} from '@/store/receiptsSlice';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { accountLoaded, buildUserState, signedIn } from '@/store/userSlice';
import { createFakeBackend } from '../../support/fakeBackend';
import { createVirtualTime } from '../../support/virtualTime';

const ME = 'uidMember00000000001';
const DANA = 'uidDana0000000000001';
const A = 'ChannelTypeA00000001';
const B = 'ChannelTypeB00000001';
const me = { uid: ME, email: 'me@example.com', displayName: 'Me' };
const msg = (n: number, channelId = A, senderId = DANA): ChatMessage => ({
  id: `Type${String(n).padStart(16, '0')}`,
  channelId,
  senderId,
  senderName: 'Dana',
  text: `m${n}`,
  createdAt: 1_000 + n,
});
const danaRead: Receipt = { uid: DANA, name: 'Dana', read: msg(1), readAt: 5, delivered: null };

function stateWith(openId: string | null): RootState {
  let state = rootReducer(undefined, signedIn({ authUser: me }));
  state = rootReducer(state, accountLoaded(buildUserState(me, null, { isAdmin: false })));
  return rootReducer(state, channelOpened({ id: openId }));
}

const STOP = 'test/stop';
function* session(backend: Backend) {
  yield race({ run: call(runReceipts, ME, backend), stop: take(STOP) });
}

function run(openId: string | null = A, { settings = true } = {}) {
  const backend = createFakeBackend();
  const typers = new Map<string, (signal: TypingSignal) => void>();
  const receiptListeners = new Map<string, (receipts: Receipt[]) => void>();
  const stopped: string[] = [];
  backend.typing.subscribeTyping.mockImplementation((channelId: string, listener) => {
    typers.set(channelId, listener);
    return () => {
      typers.delete(channelId);
      stopped.push(`typing:${channelId}`);
    };
  });
  backend.receipts.subscribeReceipts.mockImplementation((channelId: string, listener) => {
    receiptListeners.set(channelId, listener);
    return () => {
      receiptListeners.delete(channelId);
      stopped.push(`receipts:${channelId}`);
    };
  });
  backend.typing.sendTyping.mockResolvedValue(undefined);
  backend.receipts.markDelivered.mockResolvedValue(undefined);
  backend.receipts.getSettings.mockResolvedValue({ enabled: settings });
  const time = createVirtualTime();
  let latest = stateWith(openId);
  const reduce = (state: RootState | undefined, action: { type: string }): RootState =>
    (latest = rootReducer(state, action));
  const saga = expectSaga(session, backend as unknown as Backend)
    .withReducer(reduce, latest)
    .provide([time.provider]);
  const pending = saga.run({ timeout: 5_000, silenceTimeout: true });
  return { backend, typers, receiptListeners, stopped, time, saga, pending, state: () => latest };
}

async function finish(t: ReturnType<typeof run>): Promise<RootState> {
  t.saga.dispatch({ type: STOP });
  return (await t.pending).storeState as RootState;
}

describe('typing signals sent', () => {
  it('sends a burst of keystrokes as one signal every 3 s, not one a keystroke', async () => {
    const t = run();
    await t.time.flush();
    for (let i = 1; i <= 100; i += 1) {
      t.saga.dispatch(draftChanged({ channelId: A, text: 'x'.repeat(i) }));
      await t.time.advance(100);
    }
    await t.time.advance(3_000);
    // 100 keystrokes over 10 s: the first, then one each 3 s (the last one trailing), never more.
    const sent = t.backend.typing.sendTyping.mock.calls.length;
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThanOrEqual(5);
    expect(t.backend.typing.sendTyping.mock.calls.every(([id]) => id === A)).toBe(true);
    await finish(t);
  });

  it('sends nothing once the draft was sent or erased before the throttled signal went', async () => {
    const t = run();
    await t.time.flush();
    t.saga.dispatch(draftChanged({ channelId: A, text: 'Hello' }));
    await t.time.flush();
    t.saga.dispatch(draftChanged({ channelId: A, text: 'Hello!' }));
    t.saga.dispatch(draftChanged({ channelId: A, text: '' }));
    await t.time.advance(3_500);
    expect(t.backend.typing.sendTyping).toHaveBeenCalledTimes(1);
    await finish(t);
  });

  it('keeps going when a signal is refused (nobody is told about a lost typing signal)', async () => {
    const t = run();
    t.backend.typing.sendTyping.mockRejectedValue(new BackendError('RESOURCE_EXHAUSTED', 'Too many'));
    await t.time.flush();
    t.saga.dispatch(draftChanged({ channelId: A, text: 'a' }));
    await t.time.advance(3_100);
    t.saga.dispatch(draftChanged({ channelId: A, text: 'ab' }));
    await t.time.advance(100);
    expect(t.backend.typing.sendTyping).toHaveBeenCalledTimes(2);
    await finish(t);
  });
});

describe('typing shown', () => {
  it('shows a typer while their signals come, and not 6 s after the last', async () => {
    const t = run();
    await t.time.flush();
    t.typers.get(A)?.({ uid: DANA, name: 'Dana' });
    await t.time.advance(4_000);
    t.typers.get(A)?.({ uid: DANA, name: 'Dana' });
    await t.time.advance(4_000);
    expect(selectTypingNames(t.state(), A)).toEqual(['Dana']);
    await t.time.advance(2_000);
    expect(selectTypingNames(t.state(), A)).toEqual([]);
    await finish(t);
  });

  it('drops a typer 6 s after their last signal', async () => {
    const t = run();
    await t.time.flush();
    t.typers.get(A)?.({ uid: DANA, name: 'Dana' });
    await t.time.advance(5_900);
    expect(selectTypingNames(t.state(), A)).toEqual(['Dana']);
    await t.time.advance(100);
    expect(selectTypingNames(t.state(), A)).toEqual([]);
    await finish(t);
  });

  it('drops a typer at once when their message arrives', async () => {
    const t = run();
    await t.time.flush();
    t.typers.get(A)?.({ uid: DANA, name: 'Dana' });
    await t.time.flush();
    expect(selectTypingNames(t.state(), A)).toEqual(['Dana']);
    t.saga.dispatch(messagesArrived({ messages: [msg(2)], ownUid: ME }));
    expect(selectTypingNames(t.state(), A)).toEqual([]);
    await finish(t);
  });

  it('leaves no stale typer after the connection drops and comes back', async () => {
    const t = run();
    await t.time.flush();
    t.typers.get(A)?.({ uid: DANA, name: 'Dana' });
    await t.time.flush();
    t.saga.dispatch(liveStatusChanged({ status: 'interrupted' }));
    t.saga.dispatch(liveStatusChanged({ status: 'live' }));
    await t.time.flush();
    expect(selectTypingNames(t.state(), A)).toEqual([]);
    await finish(t);
  });

  it('follows only the open channel: opening another stops the first', async () => {
    const t = run();
    await t.time.flush();
    t.typers.get(A)?.({ uid: DANA, name: 'Dana' });
    await t.time.flush();
    t.saga.dispatch(channelOpened({ id: B }));
    await t.time.flush();
    expect(t.stopped).toEqual(expect.arrayContaining([`typing:${A}`, `receipts:${A}`]));
    expect([...t.typers.keys()]).toEqual([B]);
    expect(selectTypingNames(t.state(), A)).toEqual([]);
    await finish(t);
  });
});

describe('receipts', () => {
  it("puts the open channel's receipts in the store as they come", async () => {
    const t = run();
    await t.time.flush();
    t.receiptListeners.get(A)?.([danaRead]);
    expect(selectReceipts(t.state(), A)).toEqual([danaRead]);
    await finish(t);
  });

  it('marks what reaches the device delivered, the newest by others a channel, at most once a second', async () => {
    const t = run(null);
    await t.time.flush();
    t.saga.dispatch(messagesArrived({ messages: [msg(1, B)], ownUid: ME }));
    for (let i = 2; i <= 6; i += 1) {
      t.saga.dispatch(messagesArrived({ messages: [msg(i, B)], ownUid: ME }));
      await t.time.advance(150);
    }
    t.saga.dispatch(messagesArrived({ messages: [msg(9, B, ME)], ownUid: ME }));
    await t.time.advance(1_500);
    const calls = t.backend.receipts.markDelivered.mock.calls;
    expect(calls.length).toBeLessThanOrEqual(3);
    expect(calls.at(-1)).toEqual([B, msg(6, B).id]);
    await finish(t);
  });

  it('reads the switch at the start, saves a change, and puts it back with words when saving fails', async () => {
    const t = run(A, { settings: true });
    await t.time.flush();
    t.backend.receipts.setSettings.mockRejectedValueOnce(new BackendError('UNAVAILABLE', 'You are offline.'));
    t.saga.dispatch(receiptSettingsRequested({ enabled: false }));
    await t.time.flush();
    const state = await finish(t);
    expect(selectReceiptSettings(state)).toEqual({
      enabled: true,
      status: 'failed',
      error: 'You are offline.',
    });
  });

  it('saves the switch and follows the open channel again under the new choice', async () => {
    const t = run();
    await t.time.flush();
    t.backend.receipts.setSettings.mockResolvedValueOnce({ enabled: false });
    t.saga.dispatch(receiptSettingsRequested({ enabled: false }));
    await t.time.flush();
    expect(t.backend.receipts.setSettings).toHaveBeenCalledWith({ enabled: false });
    expect(t.backend.receipts.subscribeReceipts).toHaveBeenCalledTimes(2);
    expect(selectReceiptSettings(await finish(t)).enabled).toBe(false);
  });
});
