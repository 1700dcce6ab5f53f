import { findNonSerializableValue } from '@reduxjs/toolkit';
import reducer, {
  initialState,
  liveStatusChanged,
  reconnectingNoticeShown,
  selectReconnecting,
  watcherCrashed,
  watcherRestarted,
} from '@/store/liveSlice';
import type { LiveState } from '@/store/liveSlice';
import { signedOut } from '@/store/userSlice';

const reconnecting = (live: LiveState) => selectReconnecting({ live });
const interrupted = () => reducer(initialState, liveStatusChanged({ status: 'interrupted' }));

describe('live reducer: the connection', () => {
  it('starts connecting, without telling the person anything', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(state.status).toBe('connecting');
    expect(reconnecting(state)).toBe(false);
    expect(state.watchers).toEqual({});
  });

  it('follows the backend’s status', () => {
    expect(reducer(initialState, liveStatusChanged({ status: 'live' })).status).toBe('live');
    expect(interrupted().status).toBe('interrupted');
  });

  it('says "Reconnecting…" only once the live saga decides an interruption lasted', () => {
    const state = interrupted();
    expect(reconnecting(state)).toBe(false);
    expect(reconnecting(reducer(state, reconnectingNoticeShown()))).toBe(true);
  });

  it('stops saying "Reconnecting…" as soon as live data flows again', () => {
    const shown = reducer(interrupted(), reconnectingNoticeShown());
    expect(reconnecting(reducer(shown, liveStatusChanged({ status: 'live' })))).toBe(false);
  });

  it('keeps saying it through another interruption before the connection is back', () => {
    const shown = reducer(interrupted(), reconnectingNoticeShown());
    expect(reconnecting(reducer(shown, liveStatusChanged({ status: 'connecting' })))).toBe(true);
  });

  it('ignores a notice that comes after live data is already back', () => {
    const live = reducer(interrupted(), liveStatusChanged({ status: 'live' }));
    expect(reconnecting(reducer(live, reconnectingNoticeShown()))).toBe(false);
  });
});

describe('live reducer: crashed watchers (src/sagas/supervise.ts)', () => {
  const crash = (state: LiveState, name: string, live: boolean, message = 'boom') =>
    reducer(state, watcherCrashed({ name, live, message }));

  it('says "Reconnecting…" while a watcher that carries live data is down, until it is back', () => {
    const down = crash(reducer(initialState, liveStatusChanged({ status: 'live' })), 'channels', true);
    expect(reconnecting(down)).toBe(true);
    expect(reconnecting(reducer(down, watcherRestarted({ name: 'channels' })))).toBe(false);
  });

  it('stays quiet about a watcher that carries no live data', () => {
    expect(reconnecting(crash(initialState, 'attention', false))).toBe(false);
  });

  it('counts the restarts of each watcher and keeps the last crash’s words', () => {
    let state = crash(initialState, 'channels', true, 'first');
    state = reducer(state, watcherRestarted({ name: 'channels' }));
    state = crash(state, 'channels', true, 'second');
    state = reducer(state, watcherRestarted({ name: 'channels' }));
    state = crash(state, 'offers', true, 'other');
    expect(state.watchers).toEqual({
      channels: { live: true, restarting: false, restarts: 2, lastError: 'second' },
      offers: { live: true, restarting: true, restarts: 0, lastError: 'other' },
    });
  });

  it('records a restart of a watcher it never saw crash, as one that carries no live data', () => {
    const state = reducer(initialState, watcherRestarted({ name: 'page hide' }));
    expect(state.watchers['page hide']).toEqual({
      live: false,
      restarting: false,
      restarts: 1,
      lastError: null,
    });
    expect(reconnecting(state)).toBe(false);
  });
});

describe('live reducer: sign-out', () => {
  it('forgets the connection and the watchers of the session', () => {
    let state = reducer(interrupted(), reconnectingNoticeShown());
    state = reducer(state, watcherCrashed({ name: 'channels', live: true, message: 'boom' }));
    state = reducer(state, signedOut());
    expect(state).toEqual(initialState);
    expect(reconnecting(state)).toBe(false);
  });

  it('stays serializable after a crash', () => {
    const state = reducer(
      initialState,
      watcherCrashed({ name: 'channels', live: true, message: 'TypeError: x' }),
    );
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
