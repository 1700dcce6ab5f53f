// The layout rules of a conversation's rows: days, groups and the "New messages" divider.
import type { ChatMessage } from '@core/model';
import {
  GROUP_WINDOW_MS,
  continuesGroup,
  dayKey,
  dayLabel,
  firstUnreadId,
  startsDay,
} from '@/features/conversation/messageRows';

const ME = 'uidMe';
const OTHER = 'uidOther';
/** Local noon on Wednesday 15 July 2026. */
const NOON = new Date(2026, 6, 15, 12, 0, 0).getTime();
const MINUTE = 60_000;

const message = (id: string, createdAt: number, senderId = OTHER): ChatMessage => ({
  id,
  channelId: 'chan',
  senderId,
  senderName: senderId,
  text: id,
  createdAt,
});

describe('dayKey', () => {
  it('gives two moments of one local day one key, and the next day another', () => {
    const morning = new Date(2026, 6, 15, 0, 0, 1).getTime();
    const night = new Date(2026, 6, 15, 23, 59, 59).getTime();
    expect(dayKey(morning)).toBe('2026-07-15');
    expect(dayKey(night)).toBe('2026-07-15');
    expect(dayKey(night + 2_000)).toBe('2026-07-16');
  });
});

describe('dayLabel', () => {
  it('says Today and Yesterday by the calendar, not by 24 hours', () => {
    const justAfterMidnight = new Date(2026, 6, 15, 0, 5).getTime();
    const lateYesterday = new Date(2026, 6, 14, 23, 55).getTime();
    expect(dayLabel(NOON, justAfterMidnight)).toBe('Today');
    expect(dayLabel(lateYesterday, justAfterMidnight)).toBe('Yesterday');
  });

  it('names the weekday within the last week, then the date, with the year only when it is not this one', () => {
    const threeDaysAgo = new Date(2026, 6, 12, 9, 0).getTime();
    expect(dayLabel(threeDaysAgo, NOON)).toBe(
      new Date(threeDaysAgo).toLocaleDateString([], { weekday: 'long' }),
    );
    const lastMonth = new Date(2026, 5, 2, 9, 0).getTime();
    const label = dayLabel(lastMonth, NOON);
    expect(label).toContain('2');
    expect(label).not.toContain('2026');
    expect(dayLabel(new Date(2025, 11, 31, 9, 0).getTime(), NOON)).toContain('2025');
  });
});

describe('startsDay and continuesGroup', () => {
  it('starts a day with the first message and at each change of local day', () => {
    const before = message('a', new Date(2026, 6, 14, 23, 58).getTime());
    const after = message('b', new Date(2026, 6, 15, 0, 1).getTime());
    expect(startsDay(undefined, before)).toBe(true);
    expect(startsDay(before, after)).toBe(true);
    expect(startsDay(after, message('c', after.createdAt + MINUTE))).toBe(false);
  });

  it('groups one sender within the window on one day, and nothing else', () => {
    const first = message('a', NOON);
    expect(continuesGroup(undefined, first)).toBe(false);
    expect(continuesGroup(first, message('b', NOON + GROUP_WINDOW_MS))).toBe(true);
    expect(continuesGroup(first, message('c', NOON + GROUP_WINDOW_MS + 1))).toBe(false);
    expect(continuesGroup(first, message('d', NOON + MINUTE, ME))).toBe(false);
    // Across midnight, even a minute apart: the day separator comes between them.
    const late = message('e', new Date(2026, 6, 15, 23, 59, 30).getTime());
    expect(continuesGroup(late, message('f', late.createdAt + MINUTE))).toBe(false);
  });
});

describe('firstUnreadId', () => {
  const messages = [
    message('m1', NOON),
    message('m2', NOON + 1),
    message('mine', NOON + 2, ME),
    message('m3', NOON + 3),
    message('m4', NOON + 4),
    message('later', NOON + 5),
  ];

  it('counts back the unread messages by others from the newest one when the channel opened', () => {
    // Three unread by others up to m4 (one's own message in between is not among them); `later` came after.
    expect(firstUnreadId(messages, 3, ME, 'm4')).toBe('m2');
    expect(firstUnreadId(messages, 1, ME, 'm4')).toBe('m4');
  });

  it('has no divider when nothing was unread, nor while the first unread is not loaded yet', () => {
    expect(firstUnreadId(messages, 0, ME, 'm4')).toBeNull();
    expect(firstUnreadId(messages, 5, ME, 'm4')).toBeNull();
    expect(firstUnreadId([message('m0', NOON - 1), ...messages], 5, ME, 'm4')).toBe('m0');
  });
});
