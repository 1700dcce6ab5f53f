import { findNonSerializableValue } from '@reduxjs/toolkit';
import { DOCUMENT_ID_PATTERN } from '@core/ids';
import type { ChatMessage } from '@core/model';
import type { StoredOutboxEntry } from '@/platform/conversationStore';
import reducer, {
  conversationsRestored,
  draftChanged,
  droppedNoticeDismissed,
  initialState,
  messageAcknowledged,
  messageSendRequested,
  outboxDeleteRequested,
  outboxRetryRequested,
  outboxSendPostponed,
  outboxSendRefused,
  outboxSendStarted,
  selectDraft,
  selectDroppedCount,
  selectNextToSend,
  selectOutboxEntries,
  selectOutboxEntry,
  selectOutboxRestored,
  selectPendingFor,
} from '@/store/outboxSlice';
import type { OutboxState } from '@/store/outboxSlice';
import { signedOut } from '@/store/userSlice';

const A = 'ChannelA000000000001';
const B = 'ChannelB000000000001';
const ME = 'uidMe000000000000001';

const at = (outbox: OutboxState) => ({ outbox });

/** The outbox after the person sent `texts` to channel A, in that order, and the ids the sends were given. */
function sent(...texts: string[]): { state: OutboxState; ids: string[] } {
  let state = initialState;
  for (const text of texts) state = reducer(state, messageSendRequested({ channelId: A, text }));
  return { state, ids: state.entries.map((entry) => entry.id) };
}

const acknowledgement = (id: string, text: string): ChatMessage => ({
  id,
  channelId: A,
  senderId: ME,
  senderName: 'Me',
  text,
  createdAt: 1_700_000_000_000,
});

const stored = (id: string, over: Partial<StoredOutboxEntry> = {}): StoredOutboxEntry => ({
  id,
  uid: ME,
  channelId: A,
  text: `kept ${id}`,
  createdAt: 1_600_000_000_000,
  status: 'pending',
  error: null,
  ...over,
});
const restore = (state: OutboxState, over: Partial<Parameters<typeof conversationsRestored>[0]> = {}) =>
  reducer(state, conversationsRestored({ outbox: [], drafts: [], readMarks: [], dropped: 0, ...over }));

describe('outbox reducer: sending', () => {
  it('starts empty, with nothing restored from the device yet', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectOutboxEntries(at(state))).toEqual([]);
    expect(selectOutboxRestored(at(state))).toBe(false);
    expect(selectNextToSend(at(state))).toBeUndefined();
  });

  it('queues a send at once under a new document id, stamped with the time it was sent', () => {
    const before = Date.now();
    const { state, ids } = sent('hello');
    expect(ids[0]).toMatch(DOCUMENT_ID_PATTERN);
    const entry = selectOutboxEntry(at(state), ids[0] ?? '');
    expect(entry).toMatchObject({ channelId: A, text: 'hello', status: 'queued', error: null, attempts: 0 });
    expect(entry?.createdAt).toBeGreaterThanOrEqual(before);
    expect(entry?.createdAt).toBeLessThanOrEqual(Date.now());
  });

  it('gives each send its own id, made in the action, so replaying the action makes the same entry', () => {
    const first = messageSendRequested({ channelId: A, text: 'same words' });
    const second = messageSendRequested({ channelId: A, text: 'same words' });
    expect(first.payload.id).not.toBe(second.payload.id);
    expect(reducer(initialState, first)).toEqual(reducer(initialState, first));
  });

  it('sends the oldest queued message first', () => {
    const { state, ids } = sent('one', 'two', 'three');
    expect(selectNextToSend(at(state))?.id).toBe(ids[0]);
    const afterFirst = reducer(state, messageAcknowledged({ message: acknowledgement(ids[0] ?? '', 'one') }));
    expect(selectNextToSend(at(afterFirst))?.id).toBe(ids[1]);
  });

  it('marks a message on its way, and forgets it once the backend acknowledges it', () => {
    const { state, ids } = sent('hello');
    const sending = reducer(state, outboxSendStarted({ id: ids[0] ?? '' }));
    expect(selectOutboxEntry(at(sending), ids[0] ?? '')?.status).toBe('sending');
    const done = reducer(sending, messageAcknowledged({ message: acknowledgement(ids[0] ?? '', 'hello') }));
    expect(selectOutboxEntries(at(done))).toEqual([]);
  });

  it('queues a postponed send again, saying why and counting the attempt', () => {
    const { state: start, ids } = sent('hello');
    let state = start;
    const id = ids[0] ?? '';
    for (const error of ['Offline', 'Server busy']) {
      state = reducer(state, outboxSendStarted({ id }));
      state = reducer(state, outboxSendPostponed({ id, error }));
    }
    expect(selectOutboxEntry(at(state), id)).toMatchObject({
      status: 'queued',
      error: 'Server busy',
      attempts: 2,
    });
  });

  it('holds a refused message for the person, and lets the next one go', () => {
    const { state: start, ids } = sent('too long', 'fine');
    let state = start;
    state = reducer(state, outboxSendStarted({ id: ids[0] ?? '' }));
    state = reducer(state, outboxSendRefused({ id: ids[0] ?? '', error: 'The message is too long.' }));
    expect(selectOutboxEntry(at(state), ids[0] ?? '')).toMatchObject({
      status: 'refused',
      error: 'The message is too long.',
    });
    expect(selectNextToSend(at(state))?.id).toBe(ids[1]);
  });

  it('ignores events about a message it no longer holds', () => {
    const { state, ids } = sent('hello');
    const done = reducer(state, messageAcknowledged({ message: acknowledgement(ids[0] ?? '', 'hello') }));
    for (const late of [
      outboxSendStarted({ id: ids[0] ?? '' }),
      outboxSendPostponed({ id: ids[0] ?? '', error: 'x' }),
      outboxSendRefused({ id: ids[0] ?? '', error: 'x' }),
      outboxRetryRequested({ id: ids[0] ?? '' }),
      outboxDeleteRequested({ id: ids[0] ?? '' }),
      messageAcknowledged({ message: acknowledgement(ids[0] ?? '', 'hello') }),
    ]) {
      expect(reducer(done, late)).toEqual(done);
    }
  });
});

describe('outbox reducer: Retry and Delete', () => {
  const refused = () => {
    const { state: start, ids } = sent('hello');
    let state = start;
    const id = ids[0] ?? '';
    state = reducer(state, outboxSendPostponed({ id, error: 'Offline' }));
    state = reducer(state, outboxSendRefused({ id, error: 'Not a member' }));
    return { state, id };
  };

  it('queues a refused message again on Retry, as a first attempt', () => {
    const { state, id } = refused();
    expect(selectOutboxEntry(at(reducer(state, outboxRetryRequested({ id }))), id)).toMatchObject({
      status: 'queued',
      error: null,
      attempts: 0,
    });
  });

  it('forgets a refused message on Delete', () => {
    const { state, id } = refused();
    expect(selectOutboxEntries(at(reducer(state, outboxDeleteRequested({ id }))))).toEqual([]);
  });

  it('neither retries nor deletes a message that is on its way (it may already have arrived)', () => {
    const { state, ids } = sent('hello');
    const id = ids[0] ?? '';
    const sending = reducer(state, outboxSendStarted({ id }));
    expect(reducer(sending, outboxRetryRequested({ id }))).toEqual(sending);
    expect(reducer(sending, outboxDeleteRequested({ id }))).toEqual(sending);
  });
});

describe('outbox reducer: drafts', () => {
  it('keeps a draft per channel, and none for an emptied one', () => {
    let state = reducer(initialState, draftChanged({ channelId: A, text: 'half a tho' }));
    state = reducer(state, draftChanged({ channelId: B, text: 'other' }));
    expect([selectDraft(at(state), A), selectDraft(at(state), B)]).toEqual(['half a tho', 'other']);
    state = reducer(state, draftChanged({ channelId: A, text: '' }));
    expect(state.drafts).toEqual({ [B]: 'other' });
    expect(selectDraft(at(state), A)).toBe('');
  });

  it("clears the channel's draft when its message is sent, not another channel's", () => {
    let state = reducer(initialState, draftChanged({ channelId: A, text: 'hello' }));
    state = reducer(state, draftChanged({ channelId: B, text: 'later' }));
    state = reducer(state, messageSendRequested({ channelId: A, text: 'hello' }));
    expect([selectDraft(at(state), A), selectDraft(at(state), B)]).toEqual(['', 'later']);
  });
});

describe('outbox reducer: what the device kept (conversationsRestored)', () => {
  it('puts the unsent messages of an earlier page before the ones sent since, refused ones still refused', () => {
    const { state, ids } = sent('sent this session');
    const restored = restore(state, {
      outbox: [stored('k1'), stored('k2', { status: 'refused', error: 'Not a member' })],
    });
    expect(selectOutboxEntries(at(restored)).map((e) => [e.id, e.status, e.error, e.attempts])).toEqual([
      ['k1', 'queued', null, 0],
      ['k2', 'refused', 'Not a member', 0],
      [ids[0], 'queued', null, 0],
    ]);
    expect(selectOutboxRestored(at(restored))).toBe(true);
  });

  it('does not queue twice a message this session already holds', () => {
    const { state, ids } = sent('hello');
    const id = ids[0] ?? '';
    const restored = restore(reducer(state, outboxSendStarted({ id })), {
      outbox: [stored(id, { text: 'hello' })],
    });
    expect(selectOutboxEntries(at(restored)).map((e) => [e.id, e.status])).toEqual([[id, 'sending']]);
  });

  it('keeps a draft typed since the page opened over the one kept from before', () => {
    const typed = reducer(initialState, draftChanged({ channelId: A, text: 'new words' }));
    const restored = restore(typed, {
      drafts: [
        { uid: ME, channelId: A, text: 'old words' },
        { uid: ME, channelId: B, text: 'kept words' },
      ],
    });
    expect([selectDraft(at(restored), A), selectDraft(at(restored), B)]).toEqual(['new words', 'kept words']);
  });

  it('counts the unreadable entries it dropped until the person has been told', () => {
    let state = restore(initialState, { dropped: 2 });
    state = restore(state, { dropped: 1 });
    expect(selectDroppedCount(at(state))).toBe(3);
    expect(selectDroppedCount(at(reducer(state, droppedNoticeDismissed())))).toBe(0);
  });
});

describe('outbox reducer: sign-out and the selectors', () => {
  it('forgets the messages and drafts of the account at sign-out', () => {
    let state = restore(sent('hello').state, { outbox: [stored('k1')], dropped: 1 });
    state = reducer(state, draftChanged({ channelId: B, text: 'draft' }));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it("lists a channel's messages on their way, in the order written", () => {
    let state = reducer(initialState, messageSendRequested({ channelId: A, text: 'a1' }));
    state = reducer(state, messageSendRequested({ channelId: B, text: 'b1' }));
    state = reducer(state, messageSendRequested({ channelId: A, text: 'a2' }));
    expect(selectPendingFor(at(state), A).map((e) => e.text)).toEqual(['a1', 'a2']);
    expect(selectPendingFor(at(state), 'ChannelNone')).toEqual([]);
    expect(selectPendingFor(at(state), A)).toBe(selectPendingFor(at(state), A));
  });

  it('stays serializable through sends, failures and a restore', () => {
    const { state: start, ids } = sent('one', 'two');
    let state = start;
    state = reducer(state, outboxSendPostponed({ id: ids[0] ?? '', error: 'Offline' }));
    state = reducer(state, outboxSendRefused({ id: ids[1] ?? '', error: 'No' }));
    state = restore(state, {
      outbox: [stored('k1')],
      drafts: [{ uid: ME, channelId: B, text: 'd' }],
      dropped: 1,
    });
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
