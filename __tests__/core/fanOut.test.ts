// The message fan-out both backends run (core/fanOut.ts): who counts a message as pending, who gets a push, one
// push per browser with each recipient's own badge count.
import fc from 'fast-check';
import { planPushes, planRecipients, pushRecipients } from '../../core/fanOut';
import type { NotificationSettings } from '../../core/model';
import { MUTED_FOREVER } from '../../core/mutes';

const NOW = 1_800_000_000_000;
const channel = { id: 'ChannelA000000000001', ownerId: 'owner', members: ['ana', 'ben', 'cy'] };
const PUSH: NotificationSettings = { enabled: true, delivery: { channels: ['push', 'in_app'] } };
const IN_APP_ONLY: NotificationSettings = { enabled: true, delivery: { channels: ['in_app'] } };
const message = {
  channelId: channel.id,
  messageId: 'Message0000000000001',
  senderName: 'Ana',
  text: 'Hi there',
};

describe('planRecipients', () => {
  it('counts the message for everyone in the channel but its sender', () => {
    expect(planRecipients({ channel, senderId: 'ana', mutes: {}, now: NOW }).recipients).toEqual([
      'owner',
      'ben',
      'cy',
    ]);
  });

  it('leaves out who muted the channel now, and not who muted it once', () => {
    const mutes = { ben: { [channel.id]: NOW + 60_000 }, cy: { [channel.id]: NOW - 1 } };
    expect(planRecipients({ channel, senderId: 'ana', mutes, now: NOW }).recipients).toEqual(['owner', 'cy']);
  });

  it('names for each recipient the channels their badge leaves out: those muted now', () => {
    const mutes = { cy: { other00000000000001: MUTED_FOREVER, ended0000000000001: NOW - 1 } };
    const { mutedChannels } = planRecipients({ channel, senderId: 'ana', mutes, now: NOW });
    expect([...(mutedChannels.cy ?? [])]).toEqual(['other00000000000001']);
    expect([...(mutedChannels.owner ?? [])]).toEqual([]);
  });
});

describe('pushRecipients', () => {
  it('keeps those who want push and have not muted the channel', () => {
    const picked = pushRecipients({
      recipients: ['owner', 'ben', 'cy', 'dee'],
      settings: { owner: PUSH, ben: IN_APP_ONLY, cy: PUSH, dee: null },
      mutes: { cy: { [channel.id]: MUTED_FOREVER } },
      channelId: channel.id,
      now: NOW,
    });
    expect(picked).toEqual(['owner']);
  });
});

describe('planPushes', () => {
  it('sends one push per browser, the first holder’s, with each recipient’s own badge', () => {
    const pushes = planPushes({
      message,
      targets: [
        { uid: 'owner', id: 't1', token: 'browser-1' },
        { uid: 'ben', id: 't2', token: 'browser-1' },
        { uid: 'ben', id: 't3', token: 'browser-2' },
      ],
      badges: { owner: 4, ben: 1 },
    });
    expect(pushes.map(({ target, push }) => [target.id, push.data.badge_count])).toEqual([
      ['t1', 4],
      ['t3', 1],
    ]);
    expect(pushes[0]?.push.notification).toEqual({ title: 'Ana', body: 'Hi there' });
    expect(pushes[0]?.push.data).toMatchObject({ channelId: channel.id, messageId: message.messageId });
  });

  it('never sends two pushes to one token, whatever the targets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ uid: fc.constantFrom('a', 'b', 'c'), token: fc.constantFrom('x', 'y', 'z') })),
        (targets) => {
          const tokens = planPushes({ message, targets, badges: {} }).map(({ target }) => target.token);
          expect(new Set(tokens).size).toBe(tokens.length);
          expect(new Set(tokens)).toEqual(new Set(targets.map((t) => t.token)));
        },
      ),
    );
  });
});
