// What a push for a new message says (core/push.ts), at its boundaries, and the one link every side opens for it:
// the backends' payload, the service worker's click and the page's in-app notice all lead to core/paths.ts
// channelPath.
import { channelPath } from '@core/paths';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX, messagePush } from '@core/push';
import { parsePushPayload } from '@/protocol/messages';
import { noticePath } from '@/store/inboxSlice';
import { messagePath } from '@/sw/push';

const CHANNEL = 'ChannelStudio0000001';
const push = (text: string, senderName = 'Dana') =>
  messagePush({ channelId: CHANNEL, senderName, text, badgeCount: 1 });

describe('messagePush', () => {
  it.each([
    ['exactly the body limit', PUSH_BODY_MAX, 'x'.repeat(PUSH_BODY_MAX)],
    ['one over', PUSH_BODY_MAX + 1, `${'x'.repeat(PUSH_BODY_MAX - 1)}…`],
  ])('keeps a body of %s whole, else cuts it with an ellipsis', (_label, length, body) => {
    expect(push('x'.repeat(length)).notification.body).toBe(body);
  });

  it('cuts a title over its limit the same way', () => {
    expect(push('hi', 'n'.repeat(PUSH_TITLE_MAX)).notification.title).toBe('n'.repeat(PUSH_TITLE_MAX));
    expect(push('hi', 'n'.repeat(PUSH_TITLE_MAX + 1)).notification.title).toHaveLength(PUSH_TITLE_MAX);
  });
});

describe('the link of a message push', () => {
  it('is the channel path on the backends, in the worker and in the page', () => {
    const sent = push('hello');
    expect(sent.path).toBe(channelPath(CHANNEL));
    const payload = parsePushPayload({ messageId: 'm1', data: sent.data, notification: sent.notification });
    expect(payload).not.toBeNull();
    if (!payload) return;
    expect(messagePath(payload, 'https://qupm.example')).toBe(channelPath(CHANNEL));
    expect(noticePath(payload)).toBe(channelPath(CHANNEL));
  });

  it('is home when the push names no channel', () => {
    const payload = parsePushPayload({
      messageId: 'm2',
      data: { type: 'message', badge_count: 0 },
      notification: { title: 'QuPM', body: 'x' },
    });
    expect(payload && messagePath(payload, 'https://qupm.example')).toBe('/');
    expect(payload && noticePath(payload)).toBe('/');
  });
});
