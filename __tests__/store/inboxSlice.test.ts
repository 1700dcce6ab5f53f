import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { PushPayload } from '@/protocol/messages';
import reducer, {
  MAX_NOTICES,
  SEEN_IDS_KEPT,
  duplicateMessageSkipped,
  initialState,
  liveMessageNoticed,
  noticeDismissed,
  noticeExpired,
  noticePath,
  pushMessageReceived,
  screenShown,
  selectNoticedIds,
  selectNotices,
  selectScreenPath,
  selectSeenMessageIds,
} from '@/store/inboxSlice';
import type { InboxState } from '@/store/inboxSlice';
import { signedOut } from '@/store/userSlice';

const CHANNEL = 'ChannelA000000000001';

const payload = (messageId: string, channelId: string | null = CHANNEL): PushPayload => ({
  messageId,
  data: { type: 'new_message', badge_count: 1, ...(channelId === null ? {} : { channelId }) },
  notification: { title: `Title ${messageId}`, body: `Body ${messageId}` },
});
const received = (messageId: string, presented = true, channelId: string | null = CHANNEL) =>
  pushMessageReceived({ messageId, payload: payload(messageId, channelId), presented });

const run = (...actions: Parameters<typeof reducer>[1][]): InboxState =>
  actions.reduce((state, action) => reducer(state, action), initialState);
const wrap = (inbox: InboxState) => ({ inbox });

describe('a message reaching an open window', () => {
  it('remembers its id and, when presented, shows a notice leading to its channel', () => {
    const state = run(received('m1'));
    expect(selectSeenMessageIds(wrap(state))).toEqual(['m1']);
    expect(selectNotices(wrap(state))).toEqual([
      { id: 'm1', title: 'Title m1', body: 'Body m1', path: `/?channel=${CHANNEL}` },
    ]);
  });

  it('remembers an id it did not present (the worker showed it), with no notice', () => {
    const state = run(received('m1', false));
    expect(state.seenIds).toEqual(['m1']);
    expect(state.notices).toEqual([]);
  });

  it('leads home when the message names no channel', () => {
    expect(noticePath(payload('m1', null))).toBe('/');
    expect(run(received('m1', true, null)).notices[0]?.path).toBe('/');
  });

  it(`shows at most ${MAX_NOTICES} notices, the newest`, () => {
    const state = run(...['a', 'b', 'c', 'd', 'e'].map((id) => received(id)));
    expect(state.notices.map((n) => n.id)).toEqual(['c', 'd', 'e']);
  });

  it(`remembers the newest ${SEEN_IDS_KEPT} ids, oldest first`, () => {
    const ids = Array.from({ length: SEEN_IDS_KEPT + 5 }, (_, i) => `m${i}`);
    const state = run(...ids.map((id) => received(id, false)));
    expect(state.seenIds).toHaveLength(SEEN_IDS_KEPT);
    expect(state.seenIds[0]).toBe('m5');
    expect(state.seenIds.at(-1)).toBe(`m${SEEN_IDS_KEPT + 4}`);
  });

  it('changes nothing for a skipped duplicate', () => {
    const before = run(received('m1'));
    expect(reducer(before, duplicateMessageSkipped({ messageId: 'm1' }))).toBe(before);
  });
});

describe('notices going away', () => {
  it('removes only the dismissed or expired one', () => {
    const shown = run(received('a'), received('b'), received('c'));
    expect(reducer(shown, noticeDismissed({ id: 'b' })).notices.map((n) => n.id)).toEqual(['a', 'c']);
    expect(reducer(shown, noticeExpired({ id: 'a' })).notices.map((n) => n.id)).toEqual(['b', 'c']);
    expect(reducer(shown, noticeExpired({ id: 'unknown' })).notices).toEqual(shown.notices);
  });
});

it('shows the next person on a shared device none of the last one’s notices, but still skips repeats', () => {
  const state = run(received('a'), received('b', false), signedOut());
  expect(state.notices).toEqual([]);
  expect(state.seenIds).toEqual(['a', 'b']);
});

describe('live notices (issue #13)', () => {
  const notice = (id: string) => ({ id, title: 'Dana', body: `Body ${id}`, path: `/?channel=${CHANNEL}` });

  it('shows a live message once, whichever way it comes first', () => {
    const live = run(
      liveMessageNoticed({ notice: notice('m1') }),
      liveMessageNoticed({ notice: notice('m1') }),
    );
    expect(live.notices.map((n) => n.id)).toEqual(['m1']);
    // Its push, under FCM's own id, names the chat message in its data.
    const pushed = pushMessageReceived({
      messageId: 'fcm-1',
      payload: { ...payload('fcm-1'), data: { ...payload('fcm-1').data, messageId: 'm1' } },
      presented: true,
    });
    const both = reducer(live, pushed);
    expect(both.notices.map((n) => n.id)).toEqual(['m1']);
    expect(both.seenIds).toEqual(['fcm-1']);
    expect(reducer(run(pushed), liveMessageNoticed({ notice: notice('m1') })).notices).toHaveLength(1);
    expect(selectNoticedIds(wrap(both))).toEqual(['m1']);
  });

  it('keeps at most three on screen', () => {
    const state = run(...['a', 'b', 'c', 'd'].map((id) => liveMessageNoticed({ notice: notice(id) })));
    expect(state.notices.map((n) => n.id)).toEqual(['b', 'c', 'd']);
    expect(MAX_NOTICES).toBe(3);
  });

  it('knows the screen on show, also after sign-out', () => {
    const state = run(screenShown({ path: '/settings' }), signedOut());
    expect(selectScreenPath(wrap(state))).toBe('/settings');
    expect(selectScreenPath(wrap(initialState))).toBeNull();
  });
});

it('stays serializable', () => {
  expect(findNonSerializableValue(run(received('a'), received('b', false)))).toBe(false);
});
