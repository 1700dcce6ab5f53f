// Muting a channel: the durations, when a mute ends, whether a channel is muted at a moment
// (compared with the clock, no job), and who may mute; core/delivery.ts's push and in-app rules follow it.
import { wantsInAppFrom, wantsPushFrom } from '@core/delivery';
import { QupmError } from '@core/errors';
import {
  MUTE_DURATIONS,
  MUTE_MESSAGES,
  MUTED_FOREVER,
  activeMutes,
  assertCanMute,
  assertMuteDuration,
  isChannelMuted,
  isMuteDuration,
  isMuteEnd,
  isMuted,
  isMutedForever,
  muteEndsAt,
} from '@core/mutes';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const HOUR = 3_600_000;

describe('muteEndsAt', () => {
  it('ends an hour or eight hours later, or never', () => {
    expect(muteEndsAt('1h', NOW)).toBe(NOW + HOUR);
    expect(muteEndsAt('8h', NOW)).toBe(NOW + 8 * HOUR);
    expect(muteEndsAt('forever', NOW)).toBe(MUTED_FOREVER);
    expect(isMutedForever(muteEndsAt('forever', NOW))).toBe(true);
    expect(isMutedForever(muteEndsAt('8h', NOW))).toBe(false);
  });

  it('keeps "forever" a valid date', () => {
    expect(Number.isNaN(new Date(MUTED_FOREVER).getTime())).toBe(false);
    expect(Number.isNaN(new Date(MUTED_FOREVER + 1).getTime())).toBe(true);
  });
});

describe('isMuted', () => {
  it('is muted until the end, and not from the end on: the clock decides, no job', () => {
    const until = muteEndsAt('1h', NOW);
    expect(isMuted(until, NOW)).toBe(true);
    expect(isMuted(until, until - 1)).toBe(true);
    expect(isMuted(until, until)).toBe(false);
    expect(isMuted(until, until + HOUR)).toBe(false);
  });

  it('is never muted with nothing stored or something unreadable', () => {
    for (const value of [null, undefined, 0, -5, Number.NaN, 1.5, MUTED_FOREVER + 1]) {
      expect(isMuted(value, NOW)).toBe(false);
    }
  });

  it("reads a person's mutes by channel", () => {
    const mutes = { a: NOW + HOUR, b: NOW - 1, c: MUTED_FOREVER };
    expect(isChannelMuted(mutes, 'a', NOW)).toBe(true);
    expect(isChannelMuted(mutes, 'b', NOW)).toBe(false);
    expect(isChannelMuted(mutes, 'c', NOW + 1000 * 365 * 24 * HOUR)).toBe(true);
    expect(isChannelMuted(mutes, 'd', NOW)).toBe(false);
    expect(isChannelMuted(mutes, 'toString', NOW)).toBe(false);
    expect(activeMutes(mutes, NOW)).toEqual({ a: NOW + HOUR, c: MUTED_FOREVER });
  });
});

describe('durations from a request', () => {
  it('takes exactly the three choices', () => {
    expect(MUTE_DURATIONS.every(isMuteDuration)).toBe(true);
    for (const value of ['2h', '', 'FOREVER', 1, null, undefined, { duration: '1h' }]) {
      expect(isMuteDuration(value)).toBe(false);
      expect(() => assertMuteDuration(value)).toThrow(
        new QupmError('INVALID_ARGUMENT', MUTE_MESSAGES.unknownDuration),
      );
    }
    expect(assertMuteDuration('8h')).toBe('8h');
  });

  it('bounds a stored end', () => {
    expect(isMuteEnd(NOW)).toBe(true);
    expect(isMuteEnd(MUTED_FOREVER)).toBe(true);
    expect(isMuteEnd(MUTED_FOREVER + 1)).toBe(false);
    expect(isMuteEnd('1')).toBe(false);
  });
});

describe('assertCanMute', () => {
  const channel = { ownerId: 'owner', members: ['member'] };

  it('lets the owner and members mute', () => {
    expect(() => assertCanMute(channel, 'owner')).not.toThrow();
    expect(() => assertCanMute(channel, 'member')).not.toThrow();
  });

  it('refuses anyone else, an admin included, with words for a person', () => {
    for (const uid of ['visitor', '']) {
      expect(() => assertCanMute(channel, uid)).toThrow(
        new QupmError('PERMISSION_DENIED', MUTE_MESSAGES.notInChannel),
      );
    }
  });
});

describe('delivery from a muted channel', () => {
  it('sends neither push nor in-app notice while muted, and both again once the mute ends', () => {
    const until = muteEndsAt('8h', NOW);
    expect(wantsPushFrom(DEFAULT_NOTIFICATION_SETTINGS, until, NOW)).toBe(false);
    expect(wantsInAppFrom(DEFAULT_NOTIFICATION_SETTINGS, until, NOW)).toBe(false);
    expect(wantsPushFrom(DEFAULT_NOTIFICATION_SETTINGS, until, until)).toBe(true);
    expect(wantsInAppFrom(DEFAULT_NOTIFICATION_SETTINGS, until, until)).toBe(true);
    expect(wantsPushFrom(DEFAULT_NOTIFICATION_SETTINGS, null, NOW)).toBe(true);
  });

  it('never sends what the settings refuse, muted or not', () => {
    const off = { enabled: false, delivery: { channels: ['push' as const, 'in_app' as const] } };
    expect(wantsPushFrom(off, null, NOW)).toBe(false);
    expect(wantsInAppFrom(off, null, NOW)).toBe(false);
  });
});
