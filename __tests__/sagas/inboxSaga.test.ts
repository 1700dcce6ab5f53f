import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { channel } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import type { PushMsgMessage } from '@/protocol/messages';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { buildUserState, accountLoaded, signedIn, signedOut } from '@/store/userSlice';
import { liveMessageNoticed, pushMessageReceived, screenShown } from '@/store/inboxSlice';
import { messagesArrived } from '@/store/messages';
import { muteSaved } from '@/store/mutesSlice';
import { now } from '@/platform/browser';
import type { ChatMessage } from '@core/model';
import { channelOpened } from '@/store/channelsSlice';
import { applyAppBadge } from '@/platform/browser';
import { postToWorker } from '@/platform/serviceWorker';
import type { WorkerMessageEvent } from '@/platform/serviceWorker';
import {
  clearPending,
  expireNotice,
  handlePushMessage,
  inboxSaga,
  pendingSaga,
  watchWorkerMessages,
} from '@/sagas/inboxSaga';
import { expireLiveNotice, handleLiveMessages, isOffHomeScreen } from '@/sagas/liveNoticesSaga';
import { NOTICE_DURATION_MS } from '@/timings';
import type { NotificationSettings } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';
import { createVirtualTime } from '../support/virtualTime';

const ada = { uid: 'ada-uid', email: 'ada@example.com', displayName: 'Ada' };

function signedInState(
  settings: NotificationSettings = { enabled: true, delivery: { channels: ['push', 'in_app'] } },
) {
  let state = rootReducer(undefined, signedIn({ authUser: ada }));
  state = rootReducer(
    state,
    accountLoaded(
      buildUserState(
        ada,
        {
          uid: ada.uid,
          email: ada.email,
          isOwner: false,
          notificationSettings: settings,
          credits: 0,
          passCount: 0,
          effectiveConId: '',
        },
        { isAdmin: false },
      ),
    ),
  );
  return state;
}

const signedOutState = () => rootReducer(undefined, signedOut());

function pushMsg(messageId: string, present: boolean, badge = 4): PushMsgMessage {
  return {
    type: 'PUSH_MSG',
    messageId,
    present,
    payload: {
      messageId,
      data: { type: 'message', badge_count: badge, channelId: 'c1' },
      notification: { title: 'Dana', body: 'Notes are ready' },
    },
  };
}

function handle(state: RootState, message: PushMsgMessage) {
  return expectSaga(handlePushMessage, message)
    .withReducer(rootReducer, state)
    .provide([
      [matchers.call.fn(applyAppBadge), undefined],
      [matchers.call.fn(postToWorker), undefined],
    ])
    .run();
}

const calls = (result: Awaited<ReturnType<typeof handle>>, fn: unknown) =>
  (result.effects.call ?? []).filter((e) => e.payload.fn === fn).map((e) => e.payload.args);

describe('handlePushMessage (a PUSH_MSG in the foreground)', () => {
  it('shows an in-app notice, sets the badge and tells the worker when asked to present it', async () => {
    const result = await handle(signedInState(), pushMsg('m1', true));
    const inbox = (result.storeState as RootState).inbox;
    expect(inbox.notices).toEqual([
      { id: 'm1', title: 'Dana', body: 'Notes are ready', path: '/?channel=c1' },
    ]);
    expect(inbox.seenIds).toEqual(['m1']);
    expect(calls(result, applyAppBadge)).toEqual([[4]]);
    expect(calls(result, postToWorker)).toEqual([[{ type: 'foregroundHandled', messageId: 'm1' }]]);
  });

  it('only updates counts and badge when another window presents it', async () => {
    const result = await handle(signedInState(), pushMsg('m1', false));
    const inbox = (result.storeState as RootState).inbox;
    expect([inbox.notices, inbox.seenIds]).toEqual([[], ['m1']]);
    expect(calls(result, applyAppBadge)).toEqual([[4]]);
    expect(calls(result, postToWorker)).toEqual([]);
  });

  it('skips a message whose id was already seen (spec §5)', async () => {
    const first = await handle(signedInState(), pushMsg('m1', true));
    const again = await handle(first.storeState as RootState, pushMsg('m1', true));
    const inbox = (again.storeState as RootState).inbox;
    expect([inbox.notices.length, inbox.seenIds]).toEqual([1, ['m1']]);
    expect([calls(again, postToWorker), calls(again, applyAppBadge)]).toEqual([[], []]);
  });

  it('does not present a message while nobody is signed in, so the worker shows it', async () => {
    const result = await handle(signedOutState(), pushMsg('m1', true));
    expect((result.storeState as RootState).inbox.notices).toEqual([]);
    expect(calls(result, postToWorker)).toEqual([]);
  });

  it('does not present a message to someone who turned in-app notices off', async () => {
    const result = await handle(
      signedInState({ enabled: true, delivery: { channels: ['push'] } }),
      pushMsg('m1', true),
    );
    expect(calls(result, postToWorker)).toEqual([]);
  });

  it('clears the badge for a badge_count of 0', async () => {
    const result = await handle(signedInState(), pushMsg('m1', false, 0));
    expect(calls(result, applyAppBadge)).toEqual([[0]]);
  });
});

describe('watchWorkerMessages', () => {
  it('handles PUSH_MSG and counts what it ignored', async () => {
    const events = channel<WorkerMessageEvent>();
    const running = expectSaga(watchWorkerMessages, events)
      .withReducer(rootReducer, signedInState())
      .provide([
        [matchers.call.fn(applyAppBadge), undefined],
        [matchers.call.fn(postToWorker), undefined],
      ])
      .run({ timeout: 100, silenceTimeout: true });
    events.put({ kind: 'ignored' });
    events.put({ kind: 'push', message: pushMsg('m1', true) });
    events.put({ kind: 'ignored' });
    const state = (await running).storeState as RootState;
    expect([state.swHealth.ignoredMessages, state.inbox.notices.length]).toEqual([2, 1]);
  });
});

describe('expireNotice', () => {
  it('removes an in-app notice after its time on screen', async () => {
    const time = createVirtualTime();
    const received = pushMessageReceived({
      messageId: 'm1',
      payload: pushMsg('m1', true).payload,
      presented: true,
    });
    const running = expectSaga(expireNotice, received)
      .withReducer(rootReducer, rootReducer(signedInState(), received))
      .provide([time.provider])
      // It ends by itself once its delay fires; the bound only stops a hang (real time, so generous).
      .run({ timeout: 10_000 });
    await time.advance(NOTICE_DURATION_MS);
    expect(((await running).storeState as RootState).inbox.notices).toEqual([]);
  });
});

describe('clearing pending notifications (issue #5 part 9)', () => {
  /** The inbox as the root saga runs it: its own saga, and the one that clears pending notifications. */
  function* inboxWithBackend(backend: Backend) {
    yield all([fork(inboxSaga), fork(pendingSaga, backend)]);
  }

  function clearWith(state: RootState, answer: unknown, action?: { type: string }) {
    const backend = createFakeBackend();
    const saga = expectSaga(action ? inboxWithBackend : clearPending, backend as unknown as Backend)
      .withReducer(rootReducer, state)
      .provide([
        [matchers.call.fn(backend.callables.clearPendingNotifications), answer],
        [matchers.call.fn(applyAppBadge), undefined],
        [matchers.call.fn(postToWorker), undefined],
      ]);
    return {
      backend,
      result: (action ? saga.dispatch(action) : saga).run({ timeout: 50, silenceTimeout: true }),
    };
  }

  it('calls clear_pending_notifications for the signed-in person and clears the badge', async () => {
    const { backend, result } = clearWith(signedInState(), { success: true });
    const done = await result;
    expect(
      done.effects.call?.find((e) => e.payload.fn === backend.callables.clearPendingNotifications)?.payload
        .args,
    ).toEqual([{ userId: 'ada-uid' }]);
    expect(calls(done, applyAppBadge)).toEqual([[0]]);
  });

  it('does nothing while nobody is signed in', async () => {
    const { result } = clearWith(signedOutState(), { success: true });
    expect((await result).effects.call).toBeUndefined();
  });

  it('only logs a failure', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { result } = clearWith(signedInState(), throwError(new Error('offline')));
    await expect(result).resolves.toBeDefined();
    expect(warn).toHaveBeenCalledWith('Clearing pending notifications failed', expect.any(Error));
  });

  it('clears the badge when a channel is opened (issue #6 clears pending)', async () => {
    const start = rootReducer(
      signedInState(),
      pushMessageReceived({ messageId: 'm1', payload: pushMsg('m1', false).payload, presented: false }),
    );
    const { backend, result } = clearWith(start, { success: true }, channelOpened({ id: 'c1' }));
    const done = await result;
    expect(calls(done, applyAppBadge)).toEqual([[0]]);
    expect(done.effects.call?.some((e) => e.payload.fn === backend.callables.clearPendingNotifications)).toBe(
      false,
    );
  });

  it('runs when the app opens signed in (user/accountLoaded)', async () => {
    const { backend, result } = clearWith(
      signedInState(),
      { success: true },
      accountLoaded(buildUserState(ada, null, { isAdmin: false })),
    );
    expect(
      (await result).effects.call?.some((e) => e.payload.fn === backend.callables.clearPendingNotifications),
    ).toBe(true);
  });
});

describe('handleLiveMessages (issue #13: an in-app notice off the home screen, even without push)', () => {
  const NOW = Date.UTC(2026, 10, 23, 12);
  const live = (id: string, over: Partial<ChatMessage> = {}): ChatMessage => ({
    id,
    channelId: 'c1',
    senderId: 'dana-uid',
    senderName: 'Dana',
    text: `Message ${id}`,
    createdAt: NOW - 1000,
    ...over,
  });
  const on = (path: string, state: RootState = signedInState()) => rootReducer(state, screenShown({ path }));
  const arrive = (state: RootState, ...messages: ChatMessage[]) =>
    expectSaga(handleLiveMessages, messagesArrived({ messages, ownUid: ada.uid }))
      .withReducer(rootReducer, state)
      .provide([[matchers.call.fn(now), NOW]])
      .run();
  const notices = (result: { storeState: unknown }) => (result.storeState as RootState).inbox.notices;

  it('shows a new message from someone else on /services and /settings, linking to its channel', async () => {
    for (const path of ['/services', '/settings', '/settings/notifications']) {
      expect(notices(await arrive(on(path), live('m1')))).toEqual([
        { id: 'm1', title: 'Dana', body: 'Message m1', path: '/?channel=c1' },
      ]);
    }
  });

  it('shows nothing on the home screen (its list counts it), nor before the screen is known', async () => {
    expect(notices(await arrive(on('/'), live('m1')))).toEqual([]);
    expect(notices(await arrive(signedInState(), live('m1')))).toEqual([]);
    expect(isOffHomeScreen(null)).toBe(false);
  });

  it("shows nothing for the person's own message, a muted channel, or to someone without in-app notices", async () => {
    expect(notices(await arrive(on('/services'), live('m1', { senderId: ada.uid })))).toEqual([]);
    const muted = rootReducer(on('/services'), muteSaved({ channelId: 'c1', mutedUntil: NOW + 1 }));
    expect(notices(await arrive(muted, live('m1')))).toEqual([]);
    const pushOnly = on('/services', signedInState({ enabled: true, delivery: { channels: ['push'] } }));
    expect(notices(await arrive(pushOnly, live('m1')))).toEqual([]);
    expect(notices(await arrive(on('/services', signedOutState()), live('m1')))).toEqual([]);
  });

  it('shows a channel whose mute has ended', async () => {
    const ended = rootReducer(on('/settings'), muteSaved({ channelId: 'c1', mutedUntil: NOW }));
    expect(notices(await arrive(ended, live('m1')))).toHaveLength(1);
  });

  it('leaves out old messages a catch-up brings, and a message shown already', async () => {
    const old = live('m0', { createdAt: NOW - 60 * 60 * 1000 });
    const first = await arrive(on('/services'), old, live('m1'));
    expect(notices(first).map((n) => n.id)).toEqual(['m1']);
    const again = await arrive(first.storeState as RootState, live('m1'));
    expect(notices(again).map((n) => n.id)).toEqual(['m1']);
  });

  it('shows a message once when its push comes after it, and still tells the worker it was shown', async () => {
    const shown = await arrive(on('/settings'), live('m1'));
    const push = pushMsg('fcm-123', true);
    push.payload.data.messageId = 'm1';
    const result = await handle(shown.storeState as RootState, push);
    expect(notices(result).map((n) => n.id)).toEqual(['m1']);
    expect(calls(result, postToWorker)).toEqual([[{ type: 'foregroundHandled', messageId: 'fcm-123' }]]);
  });

  it('shows no live notice for a message its push showed first', async () => {
    const push = pushMsg('fcm-123', true);
    push.payload.data.messageId = 'm1';
    const pushed = await handle(on('/services'), push);
    expect(notices(await arrive(pushed.storeState as RootState, live('m1'))).map((n) => n.id)).toEqual([
      'm1',
    ]);
  });

  it('takes the notice away after its time', async () => {
    const notice = { id: 'm1', title: 'Dana', body: 'x', path: '/?channel=c1' };
    const state = rootReducer(on('/services'), liveMessageNoticed({ notice }));
    const time = createVirtualTime();
    const running = expectSaga(expireLiveNotice, liveMessageNoticed({ notice }))
      .withReducer(rootReducer, state)
      .provide([time.provider])
      // It ends by itself once its delay fires; the bound only stops a hang (real time, so generous).
      .run({ timeout: 10_000 });
    await time.advance(NOTICE_DURATION_MS - 1);
    await time.advance(1);
    expect(notices(await running)).toEqual([]);
  });
});
