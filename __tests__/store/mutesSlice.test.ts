// The mutes slice (issue #13 part 6): what each event does to the person's mutes, and the tab title's count —
// unread messages of the channels not muted at a moment, with the open channel's messages after the newest seen.
import type { Channel, ChannelOverview, ChatMessage } from '@core/model';
import { MUTED_FOREVER } from '@core/mutes';
import { rootReducer } from '@/store/rootReducer';
import type { RootState } from '@/store/rootReducer';
import { channelOpened, overviewLoaded } from '@/store/channelsSlice';
import { messagesLoaded } from '@/store/conversationSlice';
import { messagesSeen } from '@/store/readMarksSlice';
import reducer, {
  initialState,
  muteFailed,
  muteRequested,
  muteSaved,
  mutesFailed,
  mutesLoaded,
  mutesRequested,
  selectAttentionCount,
  selectIsMuted,
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
    expect(selectIsMuted(wrap(saved), 'a', NOW)).toBe(true);
    expect(selectIsMuted(wrap(saved), 'a', NOW + 8 * HOUR)).toBe(false);
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

describe('selectAttentionCount', () => {
  const channel = (id: string): Channel => ({
    id,
    channelId: id.toLowerCase(),
    ownerId: 'owner',
    title: id,
    description: '',
    members: ['me'],
    createdAt: 0,
  });
  const message = (channelId: string, id: string, createdAt: number, senderId = 'owner'): ChatMessage => ({
    id,
    channelId,
    senderId,
    senderName: senderId,
    text: id,
    createdAt,
  });
  const overview = (id: string, unread: number): ChannelOverview => ({
    channel: channel(id),
    lastMessage: null,
    unread,
  });

  function state(...actions: Array<{ type: string }>): RootState {
    return actions.reduce(
      (s, action) => rootReducer(s, action),
      rootReducer(
        undefined,
        overviewLoaded({ items: [overview('A', 2), overview('B', 3), overview('C', 0)] }),
      ),
    );
  }

  it('sums the unread counts of the channels not muted', () => {
    expect(selectAttentionCount(state(), 'me', NOW)).toBe(5);
    const muted = state(muteSaved({ channelId: 'B', mutedUntil: NOW + HOUR }));
    expect(selectAttentionCount(muted, 'me', NOW)).toBe(2);
    // The mute ends with the clock.
    expect(selectAttentionCount(muted, 'me', NOW + HOUR)).toBe(5);
  });

  it("counts the open channel's messages from others after the newest one seen", () => {
    const opened = state(
      channelOpened({ id: 'C' }),
      messagesLoaded({ channelId: 'C', messages: [message('C', 'm1', 1)] }),
      messagesSeen({ channelId: 'C', createdAt: 1, id: 'm1' }),
      messagesLoaded({
        channelId: 'C',
        messages: [
          message('C', 'm1', 1),
          message('C', 'm2', 2),
          message('C', 'm3', 3, 'me'),
          message('C', 'm4', 4),
        ],
      }),
    );
    expect(selectAttentionCount(opened, 'me', NOW)).toBe(5 + 2);
    const mutedOpen = rootReducer(opened, muteSaved({ channelId: 'C', mutedUntil: MUTED_FOREVER }));
    expect(selectAttentionCount(mutedOpen, 'me', NOW)).toBe(5);
  });

  it('is 0 with nothing unread', () => {
    expect(selectAttentionCount(rootReducer(undefined, { type: 'test/init' }), 'me', NOW)).toBe(0);
  });
});
