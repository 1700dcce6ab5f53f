import { findNonSerializableValue } from '@reduxjs/toolkit';
import { conversationsRestored } from '@/store/outboxSlice';
import reducer, {
  initialState,
  messagesSeen,
  readMarkAcknowledged,
  selectNewestMark,
  selectPendingMarks,
} from '@/store/readMarksSlice';
import type { ReadMarksState } from '@/store/readMarksSlice';
import { signedOut } from '@/store/userSlice';

const A = 'ChannelA000000000001';
const B = 'ChannelB000000000001';
const ME = 'uidMe000000000000001';
const T0 = 1_700_000_000_000;

const mark = (id: string, at: number, channelId = A) => ({ channelId, createdAt: T0 + at, id });
const at = (readMarks: ReadMarksState) => ({ readMarks });
const restore = (
  state: ReadMarksState,
  readMarks: Array<{ channelId: string; messageId: string; createdAt: number }>,
) =>
  reducer(
    state,
    conversationsRestored({
      outbox: [],
      drafts: [],
      dropped: 0,
      readMarks: readMarks.map((m) => ({ uid: ME, ...m })),
    }),
  );

describe('read marks reducer', () => {
  it('starts with no mark, pending or known', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectPendingMarks(at(state))).toEqual([]);
    expect(selectNewestMark(at(state), A)).toBeUndefined();
  });

  it('keeps the newest message seen in each channel until it is sent', () => {
    let state = reducer(initialState, messagesSeen(mark('a1', 1)));
    state = reducer(state, messagesSeen(mark('a2', 2)));
    state = reducer(state, messagesSeen(mark('b1', 1, B)));
    expect(selectPendingMarks(at(state))).toEqual([mark('a2', 2), mark('b1', 1, B)]);
    expect(selectNewestMark(at(state), A)).toEqual(mark('a2', 2));
  });

  it('forgets a pending mark once the backend has it, and still knows it was sent', () => {
    const state = reducer(
      reducer(initialState, messagesSeen(mark('a1', 1))),
      readMarkAcknowledged(mark('a1', 1)),
    );
    expect(selectPendingMarks(at(state))).toEqual([]);
    expect(selectNewestMark(at(state), A)).toEqual({ createdAt: T0 + 1, id: 'a1' });
  });

  it('keeps a newer mark seen while an older one was on its way', () => {
    let state = reducer(initialState, messagesSeen(mark('a1', 1)));
    state = reducer(state, messagesSeen(mark('a2', 2)));
    state = reducer(state, readMarkAcknowledged(mark('a1', 1)));
    expect(selectPendingMarks(at(state))).toEqual([mark('a2', 2)]);
    expect(selectNewestMark(at(state), A)).toEqual(mark('a2', 2));
  });

  it('never goes back to an older mark when acknowledgements arrive out of order', () => {
    // Two sends overlap (a throttled one and the one of leaving the channel): the older answers last.
    let state = reducer(initialState, messagesSeen(mark('a1', 1)));
    state = reducer(state, messagesSeen(mark('a2', 2)));
    state = reducer(state, readMarkAcknowledged(mark('a2', 2)));
    state = reducer(state, readMarkAcknowledged(mark('a1', 1)));
    expect(selectNewestMark(at(state), A)).toEqual({ createdAt: T0 + 2, id: 'a2' });
    expect(selectPendingMarks(at(state))).toEqual([]);
  });

  it('orders marks of the same millisecond by id', () => {
    let state = reducer(initialState, readMarkAcknowledged(mark('b', 5)));
    state = reducer(state, readMarkAcknowledged(mark('a', 5)));
    expect(selectNewestMark(at(state), A)?.id).toBe('b');
  });

  it('takes the marks an earlier page could not send as pending, after what this page has seen', () => {
    let state = reducer(initialState, messagesSeen(mark('a9', 9)));
    state = restore(state, [
      { channelId: A, messageId: 'a1', createdAt: T0 + 1 },
      { channelId: B, messageId: 'b1', createdAt: T0 + 1 },
    ]);
    expect(selectPendingMarks(at(state))).toEqual([mark('a9', 9), mark('b1', 1, B)]);
  });

  it("forgets the account's marks at sign-out", () => {
    let state = reducer(initialState, messagesSeen(mark('a1', 1)));
    state = reducer(state, readMarkAcknowledged(mark('b1', 1, B)));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it('stays serializable', () => {
    let state = restore(initialState, [{ channelId: B, messageId: 'b1', createdAt: T0 }]);
    state = reducer(state, messagesSeen(mark('a1', 1)));
    state = reducer(state, readMarkAcknowledged(mark('a1', 1)));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
