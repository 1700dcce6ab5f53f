import {
  checkReaction,
  countReactions,
  isReaction,
  REACTIONS,
  toggledReaction,
  toReactions,
  withReaction,
} from '@core/reactions';

const channel = { ownerId: 'owner', members: ['m1'] };

describe('reactions', () => {
  it('knows the set and nothing else', () => {
    for (const emoji of REACTIONS) expect(isReaction(emoji)).toBe(true);
    for (const other of ['🍕', '', '❤', 'heart', 1, null, undefined, {}])
      expect(isReaction(other)).toBe(false);
  });

  it('lets the channel’s people react to a message not deleted, with one of the set or null', () => {
    expect(checkReaction(channel, {}, 'm1', '👍')).toEqual({ ok: true });
    expect(checkReaction(channel, {}, 'owner', null)).toEqual({ ok: true });
    expect(checkReaction(channel, {}, 'm1', '🍕')).toEqual({ ok: false, problem: 'notInSet' });
    expect(checkReaction(channel, {}, 'stranger', '👍')).toEqual({ ok: false, problem: 'notInChannel' });
    expect(checkReaction(channel, { deleted: true }, 'm1', '👍')).toEqual({ ok: false, problem: 'deleted' });
  });

  it('counts in the set’s order, each emoji with who chose it', () => {
    expect(countReactions({ b: '😂', a: '👍', c: '👍' })).toStrictEqual([
      { emoji: '👍', uids: ['a', 'c'] },
      { emoji: '😂', uids: ['b'] },
    ]);
    expect(countReactions(undefined)).toStrictEqual([]);
  });

  it('toggles: the same emoji again takes it back, another replaces it', () => {
    expect(toggledReaction('👍', '👍')).toBeNull();
    expect(toggledReaction('👍', '❤️')).toBe('❤️');
    expect(toggledReaction(undefined, '❤️')).toBe('❤️');
    expect(withReaction({ a: '👍' }, 'a', null)).toBeNull();
    expect(withReaction({ a: '👍' }, 'b', '😮')).toStrictEqual({ a: '👍', b: '😮' });
  });

  it('reads stored reactions defensively: stray values go', () => {
    expect(toReactions({ a: '👍', b: '🍕', c: 3, '': '👍' })).toStrictEqual({ a: '👍' });
    expect(toReactions({})).toBeNull();
    expect(toReactions(['👍'])).toBeNull();
    expect(toReactions('👍')).toBeNull();
  });
});
