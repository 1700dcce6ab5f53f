// The mutes slice: what each event does to the person's mutes.
import { MUTED_FOREVER } from '@core/mutes';
import reducer, {
  initialState,
  muteFailed,
  muteRequested,
  muteSaved,
  mutesFailed,
  mutesLoaded,
  mutesRequested,
  selectMuteError,
  selectMutedUntil,
  selectMuteSaving,
  unmuteRequested,
  unmuteSaved,
} from '@/store/mutesSlice';
import { signedOut } from '@/store/userSlice';

const NOW = Date.UTC(2026, 10, 23, 12);
const HOUR = 3_600_000;
const wrap = (mutes: typeof initialState) => ({ mutes });

describe('mutesSlice', () => {
  it('loads the mutes in force', () => {
    const loading = reducer(initialState, mutesRequested());
    expect(loading.status).toBe('loading');
    const loaded = reducer(loading, mutesLoaded({ mutes: { a: NOW + HOUR } }));
    expect(loaded).toEqual({ status: 'loaded', byChannel: { a: NOW + HOUR }, saving: {}, errors: {} });
  });

  it('keeps a loaded list when a later read fails', () => {
    const loaded = reducer(initialState, mutesLoaded({ mutes: { a: NOW + HOUR } }));
    expect(reducer(reducer(loaded, mutesRequested()), mutesFailed())).toMatchObject({
      status: 'loaded',
      byChannel: { a: NOW + HOUR },
    });
    expect(reducer(initialState, mutesFailed()).status).toBe('failed');
  });

  it('keeps the answer of a change under way over a list read before it', () => {
    let state = reducer(initialState, muteRequested({ channelId: 'a', duration: '1h' }));
    state = reducer(state, muteSaved({ channelId: 'a', mutedUntil: NOW + HOUR }));
    state = reducer(state, muteRequested({ channelId: 'a', duration: '8h' }));
    state = reducer(state, mutesLoaded({ mutes: {} }));
    expect(state.byChannel).toEqual({ a: NOW + HOUR });
  });

  it('marks a change under way, then stores its answer', () => {
    const asked = reducer(initialState, muteRequested({ channelId: 'a', duration: '8h' }));
    expect(selectMuteSaving(wrap(asked), 'a')).toBe(true);
    const saved = reducer(asked, muteSaved({ channelId: 'a', mutedUntil: NOW + 8 * HOUR }));
    expect(selectMuteSaving(wrap(saved), 'a')).toBe(false);
    expect(selectMutedUntil(wrap(saved), 'a')).toBe(NOW + 8 * HOUR);
  });

  it('unmutes', () => {
    let state = reducer(initialState, muteSaved({ channelId: 'a', mutedUntil: MUTED_FOREVER }));
    state = reducer(state, unmuteRequested({ channelId: 'a' }));
    state = reducer(state, unmuteSaved({ channelId: 'a' }));
    expect(selectMutedUntil(wrap(state), 'a')).toBeNull();
    expect(selectMuteSaving(wrap(state), 'a')).toBe(false);
  });

  it('keeps a refusal in words for the person until the next try, and the mute as it was', () => {
    let state = reducer(initialState, muteRequested({ channelId: 'a', duration: '1h' }));
    state = reducer(
      state,
      muteFailed({ channelId: 'a', message: 'You can mute only a channel you are in.' }),
    );
    expect(selectMuteError(wrap(state), 'a')).toBe('You can mute only a channel you are in.');
    expect(selectMutedUntil(wrap(state), 'a')).toBeNull();
    expect(
      selectMuteError(wrap(reducer(state, muteRequested({ channelId: 'a', duration: '1h' }))), 'a'),
    ).toBeNull();
  });

  it('forgets everything at sign-out (a shared device)', () => {
    const state = reducer(initialState, muteSaved({ channelId: 'a', mutedUntil: MUTED_FOREVER }));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });
});
