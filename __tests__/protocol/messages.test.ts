import { parsePageToWorkerMessage, parsePushPayload, parseWorkerToPageMessage } from '@/protocol/messages';

describe('parsePageToWorkerMessage', () => {
  it('reads each message a page may send', () => {
    expect(parsePageToWorkerMessage({ type: 'ENABLE_MESSAGING', eventId: 'e1' })).toEqual({
      type: 'ENABLE_MESSAGING',
      eventId: 'e1',
    });
    expect(parsePageToWorkerMessage({ type: 'HEALTH_CHECK', timestamp: 1700000000000 })).toEqual({
      type: 'HEALTH_CHECK',
      timestamp: 1700000000000,
    });
    expect(parsePageToWorkerMessage({ type: 'foregroundHandled', messageId: 'm1' })).toEqual({
      type: 'foregroundHandled',
      messageId: 'm1',
    });
    expect(parsePageToWorkerMessage({ type: 'SKIP_WAITING' })).toEqual({ type: 'SKIP_WAITING' });
  });

  it('drops fields that are not part of the message', () => {
    expect(parsePageToWorkerMessage({ type: 'SKIP_WAITING', extra: 'x', __proto__: { evil: 1 } })).toEqual({
      type: 'SKIP_WAITING',
    });
  });

  it.each([
    ['null', null],
    ['a string', 'SKIP_WAITING'],
    ['an array', [{ type: 'SKIP_WAITING' }]],
    ['an unknown type', { type: 'DELETE_EVERYTHING' }],
    ['ENABLE_MESSAGING without an eventId', { type: 'ENABLE_MESSAGING' }],
    ['ENABLE_MESSAGING with an empty eventId', { type: 'ENABLE_MESSAGING', eventId: '' }],
    ['ENABLE_MESSAGING with a huge eventId', { type: 'ENABLE_MESSAGING', eventId: 'x'.repeat(201) }],
    ['HEALTH_CHECK with a string timestamp', { type: 'HEALTH_CHECK', timestamp: '1' }],
    ['HEALTH_CHECK with NaN', { type: 'HEALTH_CHECK', timestamp: Number.NaN }],
    ['foregroundHandled with a numeric id', { type: 'foregroundHandled', messageId: 7 }],
  ])('ignores %s', (_label, data) => {
    expect(parsePageToWorkerMessage(data)).toBeNull();
  });
});

describe('parseWorkerToPageMessage', () => {
  const payload = {
    messageId: 'm1',
    data: { type: 'message', badge_count: 2, channelId: 'c1' },
    notification: { title: 'Grace', body: 'Hello' },
  };

  it('reads PUSH_MSG with its payload and whether this page presents it', () => {
    expect(parseWorkerToPageMessage({ type: 'PUSH_MSG', messageId: 'm1', payload, present: true })).toEqual({
      type: 'PUSH_MSG',
      messageId: 'm1',
      payload,
      present: true,
    });
  });

  it.each([
    ['PUSH_MSG without present', { type: 'PUSH_MSG', messageId: 'm1', payload }],
    ['PUSH_MSG with a non-boolean present', { type: 'PUSH_MSG', messageId: 'm1', payload, present: 'yes' }],
    [
      'PUSH_MSG whose id differs from its payload',
      { type: 'PUSH_MSG', messageId: 'm2', payload, present: false },
    ],
    ['PUSH_MSG with a malformed payload', { type: 'PUSH_MSG', messageId: 'm1', payload: {}, present: false }],
    ['MESSAGING_ENABLED without success', { type: 'MESSAGING_ENABLED', eventId: 'e1' }],
    ['a message of the page', { type: 'foregroundHandled', messageId: 'm1' }],
  ])('ignores %s', (_label, data) => {
    expect(parseWorkerToPageMessage(data)).toBeNull();
  });
});

describe('parsePushPayload', () => {
  it("takes FCM's fcmMessageId when there is no messageId, and reads a badge count sent as text", () => {
    expect(
      parsePushPayload({
        fcmMessageId: 'f1',
        data: { type: 'message', badge_count: '4' },
        notification: { title: 'T', body: 'B' },
      }),
    ).toEqual({
      messageId: 'f1',
      data: { type: 'message', badge_count: 4 },
      notification: { title: 'T', body: 'B' },
    });
  });
});
