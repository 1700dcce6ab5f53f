import { createForegroundWaits } from '@/sw/foreground';
import { createMessageListener } from '@/sw/messages';
import type { MessageHandlers, IncomingMessage } from '@/sw/messages';
import { createMessagingState, enableMessaging } from '@/sw/messaging';
import { mustShowEveryPush } from '@/sw/platform';
import { CHROME_UA, IPHONE_UA } from './swScope';

function incoming(data: unknown) {
  const replies: unknown[] = [];
  const event: IncomingMessage = { data, ports: [{ postMessage: (m) => replies.push(m) }], source: null };
  return { event, replies };
}

function listener(handlers: Partial<MessageHandlers> = {}) {
  const counters = { ignored: 0 };
  const messaging = createMessagingState();
  const listen = createMessageListener(
    {
      HEALTH_CHECK: (message, reply) => reply({ type: 'HEALTH_CHECK', timestamp: message.timestamp }),
      ENABLE_MESSAGING: (message, reply) => reply(enableMessaging(messaging, message, true)),
      ...handlers,
    },
    counters,
  );
  return { listen, counters, messaging };
}

describe('the worker message listener', () => {
  it('answers HEALTH_CHECK with the same timestamp on the reply port', () => {
    const { listen } = listener();
    const { event, replies } = incoming({ type: 'HEALTH_CHECK', timestamp: 1234 });
    listen(event);
    expect(replies).toEqual([{ type: 'HEALTH_CHECK', timestamp: 1234 }]);
  });

  it('answers ENABLE_MESSAGING with MESSAGING_ENABLED and the same eventId', () => {
    const { listen, messaging } = listener();
    const { event, replies } = incoming({ type: 'ENABLE_MESSAGING', eventId: 'e-7' });
    listen(event);
    expect(replies).toEqual([{ type: 'MESSAGING_ENABLED', success: true, eventId: 'e-7' }]);
    expect(messaging.enabled).toBe(true);
  });

  it('ends the wait of a push when the page answers foregroundHandled', async () => {
    const waits = createForegroundWaits();
    const { listen } = listener({ foregroundHandled: (m) => waits.handled(m.messageId) });
    const handled = waits.wait('m-1', 60_000);
    listen(incoming({ type: 'foregroundHandled', messageId: 'm-1' }).event);
    await expect(handled).resolves.toBe(true);
  });

  it('does not end the wait of another message', async () => {
    const waits = createForegroundWaits();
    const { listen } = listener({ foregroundHandled: (m) => waits.handled(m.messageId) });
    const handled = waits.wait('m-1', 5);
    listen(incoming({ type: 'foregroundHandled', messageId: 'm-2' }).event);
    await expect(handled).resolves.toBe(false);
  });

  it('asks the worker to skip waiting on SKIP_WAITING', () => {
    const skip = jest.fn();
    const { listen } = listener({ SKIP_WAITING: skip });
    listen(incoming({ type: 'SKIP_WAITING' }).event);
    expect(skip).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['null', null],
    ['a string', 'HEALTH_CHECK'],
    ['an unknown type', { type: 'PUSH_MSG', messageId: 'm' }],
    ['a malformed HEALTH_CHECK', { type: 'HEALTH_CHECK', timestamp: 'now' }],
    ['a foregroundHandled without an id', { type: 'foregroundHandled' }],
  ])('ignores and counts %s without answering', (_label, data) => {
    const skip = jest.fn();
    const { listen, counters } = listener({ SKIP_WAITING: skip });
    const { event, replies } = incoming(data);
    listen(event);
    expect([counters.ignored, replies, skip.mock.calls.length]).toEqual([1, [], 0]);
  });
});

describe('mustShowEveryPush', () => {
  it.each([
    ['an iPhone', IPHONE_UA, true],
    ['an iPad', IPHONE_UA.replace('iPhone; CPU iPhone OS', 'iPad; CPU OS'), true],
    [
      'Chrome on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/140.0 Mobile/15E148 Safari/604.1',
      true,
    ],
    [
      'Safari on macOS (and iPadOS asking for desktop sites)',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
      true,
    ],
    ['Chrome on Linux', CHROME_UA, false],
    [
      'Chrome on Android',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36',
      false,
    ],
    ['Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', false],
  ])('decides for %s', (_label, userAgent, expected) => {
    expect(mustShowEveryPush(userAgent)).toBe(expected);
  });
});
