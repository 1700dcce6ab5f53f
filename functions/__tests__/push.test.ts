// The push for a new message, built from core/push.ts's content into FCM's shape: exactly these fields.
import { PUSH_BODY_MAX, messagePush } from '../../core/push';
import { DEAD_TOKEN_CODES, isDeadToken, linkOn, toFcmMessage } from '../src/push';

describe('toFcmMessage', () => {
  it('builds exactly the FCM web push QuPM sends for a message', () => {
    const push = messagePush({
      channelId: 'ChannelStudio0000001',
      senderName: 'Dana',
      text: 'Test it on new sign-ups first.',
      badgeCount: 3,
    });
    expect(toFcmMessage(push, 'token-1', 'https://qupm.example.com')).toStrictEqual({
      token: 'token-1',
      notification: { title: 'Dana', body: 'Test it on new sign-ups first.' },
      data: { type: 'message', badge_count: '3', channelId: 'ChannelStudio0000001' },
      webpush: {
        headers: { Urgency: 'high', TTL: '86400' },
        fcmOptions: { link: 'https://qupm.example.com/?channel=ChannelStudio0000001' },
      },
    });
  });

  it('sends every data value as a string, as FCM requires', () => {
    const push = messagePush({ channelId: 'c', senderName: 'A', text: 'x', badgeCount: 0 });
    const { data } = toFcmMessage(push, 't', 'https://qupm.example.com');
    for (const value of Object.values(data)) expect(typeof value).toBe('string');
    expect(data.badge_count).toBe('0');
  });
});

describe('messagePush (core/push.ts)', () => {
  it("cuts a long message to a notification's length and keeps it on one line", () => {
    const text = `First line\n\n${'word '.repeat(60)}`;
    const { notification } = messagePush({ channelId: 'c', senderName: 'A', text, badgeCount: 1 });
    expect(notification.body.length).toBe(PUSH_BODY_MAX);
    expect(notification.body).toMatch(/^First line word /);
    expect(notification.body.endsWith('…')).toBe(true);
    expect(notification.body).not.toContain('\n');
  });

  it('never carries a negative or fractional badge count', () => {
    expect(messagePush({ channelId: 'c', senderName: 'A', text: 'x', badgeCount: -2 }).data.badge_count).toBe(
      0,
    );
    expect(
      messagePush({ channelId: 'c', senderName: 'A', text: 'x', badgeCount: 2.7 }).data.badge_count,
    ).toBe(2);
  });

  it('titles a push from a sender without a name with the app name', () => {
    expect(
      messagePush({ channelId: 'c', senderName: '  ', text: 'x', badgeCount: 1 }).notification.title,
    ).toBe('QuPM');
  });

  it('links to a path of the app, with the channel id encoded', () => {
    expect(messagePush({ channelId: 'a&b', senderName: 'A', text: 'x', badgeCount: 1 }).path).toBe(
      '/?channel=a%26b',
    );
  });
});

describe('linkOn', () => {
  it('refuses a link that leaves the app', () => {
    expect(() => linkOn('https://qupm.example.com', '//evil.example.com/x')).toThrow();
    expect(() => linkOn('https://qupm.example.com', 'https://evil.example.com/')).toThrow();
  });

  it('refuses an origin that is not https, localhost included (FCM drops such links)', () => {
    expect(() => linkOn('http://qupm.example.com', '/')).toThrow(/https/);
    expect(() => linkOn('http://localhost:5000', '/')).toThrow(/https/);
  });
});

describe('isDeadToken', () => {
  it.each(DEAD_TOKEN_CODES)('treats %s as a token to delete', (errorCode) => {
    expect(isDeadToken({ success: false, errorCode })).toBe(true);
  });

  it.each(['messaging/internal-error', 'messaging/quota-exceeded', 'messaging/server-unavailable'])(
    'keeps a token that failed with the transient %s',
    (errorCode) => {
      expect(isDeadToken({ success: false, errorCode })).toBe(false);
    },
  );

  it('keeps a token that worked', () => {
    expect(isDeadToken({ success: true })).toBe(false);
  });
});
