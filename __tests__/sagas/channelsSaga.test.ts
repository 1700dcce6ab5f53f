import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { call, race, take } from 'redux-saga/effects';
import { loadBackend } from '@/backend';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
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
} from '@/store/channelsSlice';
import user, { buildUserState, loaded, signedIn, signedOut } from '@/store/userSlice';
import conversation, { messagesLoaded } from '@/features/main/conversationSlice';
import type { Channel, ChannelOverview, ChatMessage } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';
import { createVirtualTime } from '../support/virtualTime';

const reducer = combineReducers({ user, channels, conversation });
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

/** A backend whose live sources the test can feed. */
function liveBackend() {
  const backend = createFakeBackend();
  const messageListeners = new Map<string, (m: ChatMessage) => void>();
  let channelListener: ((c: Channel) => void) | null = null;
  backend.channels.subscribeChannels.mockImplementation((listener: (c: Channel) => void) => {
    channelListener = listener;
    return () => (channelListener = null);
  });
  backend.messages.subscribeMessages.mockImplementation((id: string, listener: (m: ChatMessage) => void) => {
    messageListeners.set(id, listener);
    return () => messageListeners.delete(id);
  });
  backend.channels.markRead.mockResolvedValue(undefined);
  backend.callables.clearPendingNotifications.mockResolvedValue({ success: true });
  backend.callables.checkChannelPermissions.mockResolvedValue({
    permissions: { canMessage: true, isOwner: false },
  });
  return {
    backend,
    emitMessage: (m: ChatMessage) => messageListeners.get(m.channelId)?.(m),
    emitChannel: (c: Channel) => channelListener?.(c),
    watched: () => [...messageListeners.keys()].sort(),
    channelListening: () => channelListener !== null,
  };
}

const STOP = 'test/stop';
function* session(backend: Backend) {
  yield race({ run: call(runSession, backend, ME), stop: take(STOP) });
}

describe('runSession', () => {
  it('loads the overview, follows every channel live, and counts unread messages from others', async () => {
    const live = liveBackend();
    const overview: ChannelOverview[] = [
      { channel: channel(A), lastMessage: message('m1', A, OWNER, 2_000), unread: 1 },
      { channel: channel(B), lastMessage: null, unread: 0 },
    ];
    live.backend.channels.listOverview.mockResolvedValue(overview);
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await new Promise((r) => setTimeout(r, 10));
    expect(live.watched()).toEqual([A, B]);
    live.emitMessage(message('m2', B, OWNER, 3_000));
    live.emitMessage(message('m3', B, ME, 3_500));
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    const items = (storeState as State).channels.items;
    // B has the newest activity now: first, its last message the newest, one unread (own ones do not count).
    expect(items.map((o) => [o.channel.id, o.lastMessage?.id ?? null, o.unread])).toEqual([
      [B, 'm3', 1],
      [A, 'm1', 1],
    ]);
    expect(live.watched()).toEqual([]); // every subscription ended with the session
    expect(live.channelListening()).toBe(false);
  });

  it('starts following a channel that appears later (joined or created)', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([]);
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await new Promise((r) => setTimeout(r, 10));
    live.emitChannel(channel(A, 'New one'));
    await new Promise((r) => setTimeout(r, 10));
    expect(live.watched()).toEqual([A]);
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as State).channels.items[0]?.channel.title).toBe('New one');
  });

  it('adds a live message to the open conversation once, even when it also came back from the send', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: null, unread: 0 },
    ]);
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await new Promise((r) => setTimeout(r, 10));
    saga.dispatch(messagesLoaded({ channelId: A, messages: [message('m1', A, ME, 1_500)] }));
    live.emitMessage(message('m1', A, ME, 1_500));
    live.emitMessage(message('m2', A, OWNER, 2_500));
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as State).conversation.byChannel[A]?.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
  });

  it('marks the open channel read and clears the pending notifications, once a burst of messages settles', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: null, unread: 0 },
    ]);
    const time = createVirtualTime();
    const saga = expectSaga(session, live.backend).withReducer(reducer).provide([time.provider]);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await time.flush();
    saga.dispatch(channelOpened({ id: A }));
    await time.flush();
    expect(live.backend.channels.markRead).toHaveBeenCalledTimes(1);
    expect(live.backend.callables.clearPendingNotifications).toHaveBeenCalledWith({ userId: ME });
    for (let i = 0; i < 5; i += 1) {
      live.emitMessage(message(`b${i}`, A, OWNER, 5_000 + i));
      await time.advance(200);
    }
    expect(live.backend.channels.markRead).toHaveBeenCalledTimes(1);
    await time.advance(1_000);
    expect(live.backend.channels.markRead).toHaveBeenCalledTimes(2);
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as State).channels.items[0]?.unread).toBe(0);
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

  it('logs, and does not fail, when marking read fails', async () => {
    const backend = createFakeBackend();
    backend.channels.markRead.mockRejectedValue(new BackendError('UNAVAILABLE', 'offline'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expectSaga(handleChannelOpened, backend as unknown as Backend, ME, channelOpened({ id: A }))
      .withReducer(reducer, reducer(undefined, channelOpened({ id: A })))
      .put(permissionsRequested({ channelId: A }))
      .run();
    expect(warn).toHaveBeenCalledWith('Marking the channel read failed', expect.any(BackendError));
  });
});

describe('channelsSaga', () => {
  it('runs a session from sign-in and ends it at sign-out', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview.mockResolvedValue([
      { channel: channel(A), lastMessage: null, unread: 0 },
    ]);
    const saga = expectSaga(channelsSaga)
      .withReducer(reducer)
      .provide([[matchers.call.fn(loadBackend), live.backend]]);
    const pending = saga.silentRun(100);
    saga.dispatch(signedIn({ authUser: me }));
    saga.dispatch(loaded(buildUserState(me, null, { isAdmin: false })));
    await new Promise((r) => setTimeout(r, 20));
    expect(live.watched()).toEqual([A]);
    saga.dispatch(signedOut());
    await new Promise((r) => setTimeout(r, 20));
    expect(live.watched()).toEqual([]);
    const { storeState } = await pending;
    expect((storeState as State).channels.items).toEqual([]);
  });

  it('keeps the list it has and says why when a reload of the overview fails', async () => {
    const live = liveBackend();
    live.backend.channels.listOverview
      .mockResolvedValueOnce([{ channel: channel(A), lastMessage: null, unread: 0 }])
      .mockRejectedValue(new BackendError('UNAVAILABLE', "Can't reach QuPM"));
    const saga = expectSaga(session, live.backend).withReducer(reducer);
    const pending = saga.run({ timeout: 2_000, silenceTimeout: true });
    await new Promise((r) => setTimeout(r, 10));
    saga.dispatch({ type: 'channels/overviewRequested' });
    await new Promise((r) => setTimeout(r, 10));
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as State).channels).toMatchObject({ status: 'loaded', error: "Can't reach QuPM" });
    expect((storeState as State).channels.items).toHaveLength(1);
  });
});
