import { badgeCount, pendingRecipients } from '@core/pending';

describe('badgeCount', () => {
  it('sums the pending counts', () => {
    expect(badgeCount({ a: 2, b: 3 })).toBe(5);
  });

  it('is 0 with nothing pending (the badge is cleared)', () => {
    expect(badgeCount({})).toBe(0);
  });

  it('ignores counts that are not positive whole numbers', () => {
    expect(badgeCount({ a: -4, b: 1.5, c: Number.NaN, d: Number.POSITIVE_INFINITY, e: 1 })).toBe(1);
  });

  it('leaves out muted channels, also what they counted before the mute (issue #13)', () => {
    expect(badgeCount({ a: 2, b: 3, c: 1 }, new Set(['b']))).toBe(3);
    expect(badgeCount({ a: 2 }, new Set(['a']))).toBe(0);
  });
});

describe('pendingRecipients', () => {
  it('is everyone in the channel but the sender', () => {
    expect(pendingRecipients({ ownerId: 'o', members: ['a', 'b'] }, 'a').sort()).toEqual(['b', 'o']);
    expect(pendingRecipients({ ownerId: 'o', members: ['a'] }, 'o')).toEqual(['a']);
  });

  it('counts a person once even if listed twice', () => {
    expect(pendingRecipients({ ownerId: 'o', members: ['o', 'a', 'a'] }, 'x').sort()).toEqual(['a', 'o']);
  });
});
