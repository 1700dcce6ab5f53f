import {
  advanceChanges,
  changesOf,
  compareMessages,
  encodeCursor,
  isChanged,
  isNewChange,
  versionOf,
  isNewSince,
  mergeMessages,
  parseCursor,
  sinceOf,
} from '@core/messages';
import { isUnread, nextReadMark } from '@core/channels';

const m = (id: string, createdAt: number, senderId = 'uidOther000000000001') => ({ id, createdAt, senderId });
const ID_A = 'AAAAAAAAAAAAAAAAAAAA';
const ID_a = 'aaaaaaaaaaaaaaaaaaaa';
const ID_0 = '00000000000000000000';

describe('compareMessages', () => {
  it('orders by time, then ids by code unit as SQLite and Firestore do (digits, capitals, small letters)', () => {
    const sorted = [m(ID_a, 5), m(ID_A, 5), m(ID_0, 5), m(ID_a, 4)].sort(compareMessages);
    expect(sorted.map((x) => `${x.createdAt}:${x.id[0]}`)).toEqual(['4:a', '5:0', '5:A', '5:a']);
  });
});

describe('cursors on the wire', () => {
  it('round-trips a cursor with and without an id', () => {
    expect(parseCursor(encodeCursor({ createdAt: 1_700_000_000_123, id: ID_A }))).toEqual({
      createdAt: 1_700_000_000_123,
      id: ID_A,
    });
    expect(encodeCursor({ createdAt: 42, id: '' })).toBe('42');
    expect(parseCursor('42')).toEqual({ createdAt: 42, id: '' });
  });

  it.each([
    '',
    '-1',
    '1.5',
    'abc',
    '12_short',
    `12_${ID_A}x`,
    `12_${ID_A.slice(1)}!`,
    '99999999999999999',
    '1e3',
  ])('refuses %j', (value) => {
    expect(parseCursor(value)).toBeNull();
  });
});

describe('sinceOf and isNewSince', () => {
  it('holds the newest millisecond with every id of it', () => {
    const held = [m('x', 1), m(ID_0, 7), m(ID_A, 7)];
    const since = sinceOf(held, 0);
    expect(since).toEqual({ createdAt: 7, ids: [ID_A, ID_0], changes: { at: 7, ids: [ID_0, ID_A] } });
    expect(isNewSince(m(ID_a, 7), since)).toBe(true);
    expect(isNewSince(m(ID_A, 7), since)).toBe(false);
    expect(isNewSince(m(ID_0, 6), since)).toBe(false);
    expect(isNewSince(m(ID_0, 8), since)).toBe(true);
  });

  it('holds nothing but the fallback time when empty', () => {
    expect(sinceOf([], 3)).toEqual({ createdAt: 3, ids: [] });
  });
});

describe('mergeMessages', () => {
  it('answers the same list when nothing is new (a selector sees no change)', () => {
    const held = [m(ID_0, 1), m(ID_A, 2)];
    expect(mergeMessages(held, [held[1] as (typeof held)[number]])).toBe(held);
    expect(mergeMessages(held, [])).toBe(held);
  });

  it('moves a held message whose time the backend corrected (an estimate replaced by the stored time)', () => {
    const held = [m(ID_0, 1), m(ID_A, 9), m(ID_a, 5)].sort(compareMessages);
    expect(mergeMessages(held, [m(ID_A, 2)]).map((x) => `${x.createdAt}:${x.id[0]}`)).toEqual([
      '1:0',
      '2:A',
      '5:a',
    ]);
  });

  it('moves a held message whose stored time is later than every message held, never adding it twice', () => {
    // A sent message's estimate, then its stored time (later: the server's clock, the way there): the second copy
    // sorts after the newest held, which is the first copy itself (seen twice in a sender's window on Firebase).
    const held = [m(ID_0, 1), m(ID_A, 5)];
    expect(mergeMessages(held, [m(ID_A, 8)]).map((x) => `${x.createdAt}:${x.id[0]}`)).toEqual(['1:0', '8:A']);
    const before = [m(ID_A, 5), m(ID_0, 6)];
    expect(mergeMessages(before, [m(ID_A, 8), m(ID_a, 9)]).map((x) => `${x.createdAt}:${x.id[0]}`)).toEqual([
      '6:0',
      '8:A',
      '9:a',
    ]);
  });

  it('appends what is newer, inserts what is older, once each', () => {
    const held = [m(ID_A, 2)];
    expect(mergeMessages(held, [m(ID_a, 3), m(ID_a, 3)]).map((x) => x.id)).toEqual([ID_A, ID_a]);
    expect(mergeMessages(held, [m(ID_0, 2), m('x0000000000000000000', 1)]).map((x) => x.id)).toEqual([
      'x0000000000000000000',
      ID_0,
      ID_A,
    ]);
  });
});

describe('read marks', () => {
  const me = 'uidMe000000000000001';
  it('counts as unread what others wrote after the mark, ties of a millisecond by id', () => {
    const mark = { createdAt: 5, id: ID_A };
    expect(isUnread(m(ID_a, 5), me, mark)).toBe(true);
    expect(isUnread(m(ID_0, 5), me, mark)).toBe(false);
    expect(isUnread(m(ID_a, 5, me), me, mark)).toBe(false);
    expect(isUnread(m(ID_0, 4), me, null)).toBe(true);
    // A mark from before ids were kept: the whole millisecond was read.
    expect(isUnread(m(ID_a, 5), me, { createdAt: 5, id: '' })).toBe(false);
  });

  it('only moves forward', () => {
    const mark = nextReadMark(null, m(ID_A, 5));
    expect(nextReadMark(mark, m(ID_0, 5))).toBe(mark);
    expect(nextReadMark(mark, m(ID_a, 4))).toBe(mark);
    expect(nextReadMark(mark, m(ID_a, 5))).toEqual({ createdAt: 5, id: ID_a });
    expect(nextReadMark({ createdAt: 5, id: '' }, m(ID_a, 5))).toEqual({ createdAt: 5, id: '' });
  });
});

describe('versions of one message (issue #13: edits and deletions)', () => {
  const v = (id: string, createdAt: number, updatedAt?: number, text = 'x') => ({
    ...m(id, createdAt),
    text,
    ...(updatedAt === undefined ? {} : { updatedAt }),
  });

  it('replaces a held message by a later version in place, and never by an older copy', () => {
    const held = [v(ID_0, 1), v(ID_A, 2), v(ID_a, 3)];
    const edited = mergeMessages(held, [v(ID_A, 2, 10, 'edited')]);
    expect(edited.map((x) => x.text)).toEqual(['x', 'edited', 'x']);
    // A copy from before the edit (a page read before it, arriving late) changes nothing.
    expect(mergeMessages(edited, [v(ID_A, 2)])).toBe(edited);
    expect(mergeMessages(edited, [v(ID_A, 2, 9, 'older edit')])).toBe(edited);
    expect(mergeMessages(edited, [v(ID_A, 2, 11, 'deleted')]).map((x) => x.text)).toEqual([
      'x',
      'deleted',
      'x',
    ]);
  });

  it('keeps the later of two copies of one message arriving together, whatever their order', () => {
    const merged = mergeMessages([v(ID_0, 1)], [v(ID_A, 2, 12, 'newer'), v(ID_A, 2, 11, 'older')]);
    expect(merged.map((x) => x.text)).toEqual(['x', 'newer']);
  });

  it('says what a subscriber holds of the changes: the newest version held and the ids at it', () => {
    const since = sinceOf([v(ID_0, 1, 9), v(ID_A, 2), v(ID_a, 3, 9)], 0);
    expect(since.changes).toEqual({ at: 9, ids: [ID_0, ID_a] });
    expect(isNewChange(v(ID_0, 1, 9), changesOf(since))).toBe(false);
    expect(isNewChange(v(ID_A, 2, 9), changesOf(since))).toBe(true);
    expect(isNewChange(v(ID_A, 2, 10), changesOf(since))).toBe(true);
    expect(isNewChange(v(ID_A, 2, 8), changesOf(since))).toBe(false);
    expect(changesOf({ createdAt: 4, ids: [ID_A] })).toEqual({ at: 4, ids: [] });
  });

  it('moves the changes cursor forward only', () => {
    const at9 = { at: 9, ids: [ID_0] };
    expect(advanceChanges(at9, v(ID_A, 2, 9))).toEqual({ at: 9, ids: [ID_0, ID_A] });
    expect(advanceChanges(at9, v(ID_A, 2, 12))).toEqual({ at: 12, ids: [ID_A] });
    expect(advanceChanges(at9, v(ID_A, 2, 5))).toBe(at9);
    expect(versionOf(v(ID_A, 2))).toBe(2);
    expect(isChanged(v(ID_A, 2))).toBe(false);
  });
});
