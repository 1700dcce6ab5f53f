import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { call, race, take } from 'redux-saga/effects';
import { BackendError } from '@/backend/ports';
import type { Backend, LiveStatus } from '@/backend/ports';
import type { MessagesSince } from '@core/messages';
import {
  channelsSaga,
  handleChannelOpened,
  handlePermissionsRequested,
  runSession,
} from '@/sagas/channelsSaga';
import channels, {
  channelOpened,
  permissionsRequested,
  selectShowServiceBanner,
  selectOverview,
} from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import live, { liveResumed, selectReconnecting } from '@/store/liveSlice';
import user, { buildUserState, accountLoaded, signedIn, signedOut } from '@/store/userSlice';
import conversation, { MESSAGES_WINDOW, messagesLoaded } from '@/store/conversationSlice';
import '@/features/conversation/conversationWindow';
import type { Channel, ChannelOverview, ChatMessage } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';
import { createVirtualTime } from '../support/virtualTime';
import { runWithStore } from '../support/sagaStore';
import { rootReducer } from '@/app/rootReducer';

const reducer = combineReducers({ user, channels, conversation, live });
type State = ReturnType<typeof reducer>;

const ME = 'uidMember00000000001';
const OWNER = 'uidOwner000000000001';
const me = { uid: ME, email: 'me@example.com', displayName: 'Me' };

const channel = (id: string, title = `Channel ${id}`): Channel => ({
  id,
  channelId: `handle-${id.toLowerCase()}`,
  ownerId: OWNER,
  title,
  description: '',
  members: [ME],
  createdAt: 1_000,
});
const message = (id: string, channelId: string, senderId: string, createdAt: number): ChatMessage => ({
  id,
  channelId,
  senderId,
  senderName: senderId === ME ? 'Me' : 'Dana',
  text: `text ${id}`,
  createdAt,
});
const A = 'chanA000000000000001';
const B = 'chanB000000000000001';

/** A backend whose live sources the test can feed (batches, as the port delivers them). */
function liveBackend() {
  const backend = createFakeBackend();
  const messageListeners = new Map<string, (m: ChatMessage[]) => void>();
  const sinces = new Map<string, MessagesSince>();
  const statusListeners = new Set<(status: LiveStatus) => void>();
  let channelListener: ((c: Channel) => void) | null = null;
  backend.channels.subscribeChannels.mockImplementation((listener: (c: Channel) => void) => {
    channelListener = listener;
    return () => (channelListener = null);
  });
  backend.messages.subscribeMessages.mockImplementation(
    (id: string, since: MessagesSince, listener: (m: ChatMessage[]) => void) => {
      messageListeners.set(id, listener);
      sinces.set(id, since);
      return () => messageListeners.delete(id);
    },
  );
  backend.live.subscribeStatus.mockImplementation((listener: (status: LiveStatus) => void) => {
    statusListeners.add(listener);
    listener('connecting');
    return () => statusListeners.delete(listener);
  });
  backend.callables.clearPendingNotifications.mockResolvedValue({ success: true });
  backend.callables.checkChannelPermissions.mockResolvedValue({
    permissions: { canMessage: true, isOwner: false },
  });
  return {
    backend,
    emit: (channelId: string, batch: ChatMessage[]) => messageListeners.get(channelId)?.(batch),
    emitChannel: (c: Channel) => channelListener?.(c),
    status: (status: LiveStatus) => statusListeners.forEach((listener) => listener(status)),
    watched: () => [...messageListeners.keys()].sort(),
    sinceOf: (id: string) => sinces.get(id),
    channelListening: () => channelListener !== null,
    statusListening: () => statusListeners.size > 0,
  };
}

const STOP = 'test/stop';
function* session(backend: Backend) {
  yield race({ run: call(runSession, ME, backend), stop: take(STOP) });
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const arrivals = (actions: Array<{ type: string }>) =>
  actions.filter((action) => action.type === messagesArrived.type) as Array<
    ReturnType<typeof messagesArrived>
  >;

describe('runSession: live messages', () => {
  it('follows every channel from what the page holds, and counts what others write as unread', async () => {
    const live = liveBackend();
    const overview: ChannelOverview[] = [
      { channel: channel(A), lastMessage: message('m1', A, OWNER, 2_000), unread: 1 },
      { channel: channel(B), lastMessage: null, unread: 0 },
    ];
    live.backend.channels.listOverview.mockResolvedValue(overview);
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await settle();
    expect(live.watched()).toEqual([A, B]);
    expect(live.sinceOf(A)).toEqual({ createdAt: 2_000, ids: ['m1'] });
    expect(live.sinceOf(B)).toEqual({ createdAt: 1_000, ids: [] });
    live.emit(B, [message('m2', B, OWNER, 3_000), message('m3', B, ME, 3_500)]);
    await settle();
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    const items = selectOverview(storeState as State);
    // B has the newest activity now: first, its last message the newest, one unread (own ones do not count).
    expect(items.map((o) => [o.channel.id, o.lastMessage?.id ?? null, o.unread])).toEqual([
      [B, 'm3', 1],
      [A, 'm1', 1],
    ]);
    expect(live.watched()).toEqual([]); // every subscription ended with the session
    expect(live.channelListening()).toBe(false);
    expect(live.statusListening()).toBe(false);
  });

  it('follows a loaded conversation from its newest messages, ties of a millisecond included', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: message('b', A, OWNER, 5_000), unread: 0 },
    ]);
    const saga = expectSaga(session, live.backend)
      .withReducer(reducer)
      .withState({
        ...reducer(undefined, { type: 'init' }),
        conversation: reducer(
          undefined,
          messagesLoaded({
            channelId: A,
            messages: [
              message('x', A, OWNER, 4_000),
              message('a', A, ME, 5_000),
              message('b', A, OWNER, 5_000),
            ],
          }),
        ).conversation,
      });
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await settle();
    expect(live.sinceOf(A)).toEqual({
      createdAt: 5_000,
      ids: ['b', 'a'],
      changes: { at: 5_000, ids: ['a', 'b'] },
    });
    saga.dispatch({ type: STOP });
    await pending;
  });

  it('turns a burst that arrives together into one batch of slices, and keeps every message once and in order', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: null, unread: 0 },
    ]);
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await settle();
    saga.dispatch(messagesLoaded({ channelId: A, messages: [] }));
    // 300 deliveries in one task, as a browser hands over one network chunk of a stream (and a repeat).
    const burst = Array.from({ length: 300 }, (_, i) =>
      message(`m${String(i).padStart(3, '0')}`, A, OWNER, 9_000 + (i >> 2)),
    );
    for (const m of burst) live.emit(A, [m]);
    live.emit(A, [burst[7] as ChatMessage]);
    for (let i = 0; i < 8; i += 1) await settle(); // a task between slices
    saga.dispatch({ type: STOP });
    const { storeState, effects } = await pending;
    const puts = arrivals(effects.put.map((effect) => effect.payload.action));
    // One batch, applied in slices of at most LIVE_SLICE_MAX (a render each, a task apart).
    expect(puts.map((p) => p.payload.messages.length)).toEqual([50, 50, 50, 50, 50, 50, 1]);
    // Each once and in order; the conversation holds the newest MESSAGES_WINDOW of them (the rest is paged back to).
    const conversation = (storeState as State).conversation.byChannel[A];
    expect(conversation?.messages.map((m) => m.id)).toEqual(burst.slice(-MESSAGES_WINDOW).map((m) => m.id));
    expect(conversation?.hasMore).toBe(true);
    expect(selectOverview(storeState as State)[0]?.unread).toBe(300);
  });

  it('starts following a channel that appears later (joined or created)', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([]);
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await settle();
    live.emitChannel(channel(A, 'New one'));
    await settle();
    expect(live.watched()).toEqual([A]);
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect(selectOverview(storeState as State)[0]?.channel.title).toBe('New one');
  });

  it('adds a live message to the loaded conversation once, even when it also came back from the send', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: null, unread: 0 },
    ]);
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await settle();
    saga.dispatch(messagesLoaded({ channelId: A, messages: [message('m1', A, ME, 1_500)] }));
    saga.dispatch(messagesArrived({ messages: [message('m2', A, ME, 2_500)], ownUid: ME }));
    live.emit(A, [message('m1', A, ME, 1_500), message('m2', A, ME, 2_500)]);
    live.emit(A, [message('m3', A, OWNER, 2_600)]);
    await settle();
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as State).conversation.byChannel[A]?.messages.map((m) => m.id)).toEqual([
      'm1',
      'm2',
      'm3',
    ]);
  });

  it('restarts the message watcher after a crash, reports it, and follows the channels again', async () => {
    jest.useFakeTimers();
    try {
      const live = liveBackend();
      const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      live.backend.channels.listOverview.mockResolvedValue([
        { channel: channel(A), lastMessage: null, unread: 0 },
      ]);
      live.backend.messages.subscribeMessages.mockImplementationOnce(() => {
        throw new Error('listener broke');
      });
      let state = rootReducer(undefined, signedIn({ authUser: me }));
      state = rootReducer(state, accountLoaded(buildUserState(me, null, { isAdmin: false })));
      const { store, types } = runWithStore(runSession, [ME, live.backend], state);
      await jest.advanceTimersByTimeAsync(0);
      expect(live.watched()).toEqual([]);
      expect(selectReconnecting(store.getState())).toBe(true);
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining('messages watcher failed'),
        expect.any(Error),
      );
      await jest.advanceTimersByTimeAsync(1_000);
      expect(live.watched()).toEqual([A]);
      live.emit(A, [message('after', A, OWNER, 3_000)]);
      await jest.advanceTimersByTimeAsync(0);
      expect(store.getState().live.watchers.messages).toMatchObject({
        live: true,
        restarting: false,
        restarts: 1,
      });
      expect(selectReconnecting(store.getState())).toBe(false);
      expect(selectOverview(store.getState())[0]?.lastMessage?.id).toBe('after');
      expect(types()).toEqual(expect.arrayContaining(['live/watcherCrashed', 'live/watcherRestarted']));
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('runSession: the live status', () => {
  it('says "Reconnecting…" only once an interruption lasts, and reads the overview again when live resumes', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([]);
    const time = createVirtualTime();
    const saga = expectSaga(session, live.backend).withReducer(reducer).provide([time.provider]);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await time.flush();
    live.status('live');
    await time.flush();
    // A blip (a planned renewal): back within the notice's delay, nothing shown.
    live.status('interrupted');
    await time.advance(500);
    live.status('live');
    await time.advance(5_000);
    // A real drop: shown after the delay, gone when live again.
    live.status('interrupted');
    await time.advance(1_999);
    const before = live.backend.channels.listOverview.mock.calls.length;
    live.status('live');
    await time.flush();
    live.status('interrupted');
    await time.advance(2_000);
    saga.dispatch({ type: 'test/peek' });
    live.status('live');
    await time.flush();
    saga.dispatch({ type: STOP });
    const { storeState, effects } = await pending;
    const types = effects.put.map((e) => e.payload.action.type);
    expect(types.filter((t) => t === 'live/reconnectingNoticeShown')).toHaveLength(1);
    expect(types.filter((t) => t === liveResumed.type)).toHaveLength(3);
    expect(live.backend.channels.listOverview.mock.calls.length).toBeGreaterThan(before);
    expect(selectReconnecting(storeState as State)).toBe(false);
    expect((storeState as State).live.status).toBe('live');
  });
});

describe('handleChannelOpened and permissions', () => {
  it('asks check_channel_permissions for the channel and shows the service banner when both are false', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    const { storeState } = await expectSaga(
      handlePermissionsRequested,
      backend,
      permissionsRequested({ channelId: A }),
    )
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.callables.checkChannelPermissions),
          { permissions: { canMessage: false, isOwner: false } },
        ],
      ])
      .call([backend.callables, backend.callables.checkChannelPermissions], { channel_id: A })
      .run();
    expect(selectShowServiceBanner(storeState as State, A)).toBe(true);
  });

  it.each([
    ['a member', { canMessage: true, isOwner: false }],
    ['the owner', { canMessage: true, isOwner: true }],
  ])('shows no banner to %s', async (_label, permissions) => {
    const backend = createFakeBackend() as unknown as Backend;
    const { storeState } = await expectSaga(
      handlePermissionsRequested,
      backend,
      permissionsRequested({ channelId: A }),
    )
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.callables.checkChannelPermissions), { permissions }]])
      .run();
    expect(selectShowServiceBanner(storeState as State, A)).toBe(false);
  });

  it('shows no banner when the permissions could not be read (it would be a guess)', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    const { storeState } = await expectSaga(
      handlePermissionsRequested,
      backend,
      permissionsRequested({ channelId: A }),
    )
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.callables.checkChannelPermissions),
          throwError(new BackendError('UNAVAILABLE', 'offline')),
        ],
      ])
      .run();
    expect(selectShowServiceBanner(storeState as State, A)).toBe(false);
    expect((storeState as State).channels.permissions[A]).toMatchObject({
      status: 'failed',
      error: 'offline',
    });
  });

  it('clears the pending notifications behind the badge, and logs without failing when it cannot', async () => {
    const backend = createFakeBackend();
    backend.callables.clearPendingNotifications.mockRejectedValue(new BackendError('UNAVAILABLE', 'offline'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expectSaga(handleChannelOpened, backend as unknown as Backend, ME, channelOpened({ id: A }))
      .withReducer(reducer, reducer(undefined, channelOpened({ id: A })))
      .put(permissionsRequested({ channelId: A }))
      .run();
    expect(backend.callables.clearPendingNotifications).toHaveBeenCalledWith({ userId: ME });
    expect(warn).toHaveBeenCalledWith('Clearing pending notifications failed', expect.any(BackendError));
  });
});

describe('channelsSaga', () => {
  it('runs a session from sign-in and ends it at sign-out', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: null, unread: 0 },
    ]);
    const saga = expectSaga(channelsSaga, live.backend).withReducer(reducer);
    const pending = saga.silentRun(1_000);
    saga.dispatch(signedIn({ authUser: me }));
    saga.dispatch(accountLoaded(buildUserState(me, null, { isAdmin: false })));
    await new Promise((r) => setTimeout(r, 20));
    expect(live.watched()).toEqual([A]);
    saga.dispatch(signedOut());
    await new Promise((r) => setTimeout(r, 20));
    expect(live.watched()).toEqual([]);
    const { storeState } = await pending;
    expect(selectOverview(storeState as State)).toEqual([]);
  });

  it('resumes a session already under way when it starts (a restart after a crash)', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: null, unread: 0 },
    ]);
    let state = reducer(undefined, signedIn({ authUser: me }));
    state = reducer(state, accountLoaded(buildUserState(me, null, { isAdmin: false })));
    const saga = expectSaga(channelsSaga, live.backend).withReducer(reducer, state);
    const pending = saga.silentRun(1_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(live.watched()).toEqual([A]);
    await pending;
  });

  it('keeps the list it has and says why when a reload of the overview fails', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview
      .mockResolvedValueOnce([{ channel: channel(A), lastMessage: null, unread: 0 }])
      .mockRejectedValue(new BackendError('UNAVAILABLE', "Can't reach QuPM"));
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await settle();
    saga.dispatch({ type: 'channels/overviewRequested' });
    await settle();
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as State).channels).toMatchObject({ status: 'loaded', error: "Can't reach QuPM" });
    expect(selectOverview(storeState as State)).toHaveLength(1);
  });
});
