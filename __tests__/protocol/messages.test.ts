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
    notification: { title: 'Dana', body: 'Hello' },
  };

  it('reads the answers and pushes a worker may send', () => {
    expect(parseWorkerToPageMessage({ type: 'MESSAGING_ENABLED', success: true, eventId: 'e1' })).toEqual({
      type: 'MESSAGING_ENABLED',
      success: true,
      eventId: 'e1',
    });
    expect(parseWorkerToPageMessage({ type: 'HEALTH_CHECK', timestamp: 5 })).toEqual({
      type: 'HEALTH_CHECK',
      timestamp: 5,
    });
    expect(parseWorkerToPageMessage({ type: 'PUSH_MSG', messageId: 'm1', payload, present: true })).toEqual({
      type: 'PUSH_MSG',
      messageId: 'm1',
      payload,
      present: true,
    });
  });

  it("reads the worker's counts in a HEALTH_CHECK answer, and drops counts that are not counts", () => {
    const pushes = { shown: 1, inApp: 2, generic: 0, duplicates: 3 };
    expect(
      parseWorkerToPageMessage({ type: 'HEALTH_CHECK', timestamp: 5, pushes, ignoredMessages: 4 }),
    ).toEqual({ type: 'HEALTH_CHECK', timestamp: 5, pushes, ignoredMessages: 4 });
    expect(
      parseWorkerToPageMessage({
        type: 'HEALTH_CHECK',
        timestamp: 5,
        pushes: { ...pushes, shown: -1 },
        ignoredMessages: 'many',
      }),
    ).toEqual({ type: 'HEALTH_CHECK', timestamp: 5 });
  });

  it.each([
    ['MESSAGING_ENABLED without success', { type: 'MESSAGING_ENABLED', eventId: 'e1' }],
    ['MESSAGING_ENABLED with a string success', { type: 'MESSAGING_ENABLED', success: 'yes', eventId: 'e1' }],
    [
      'PUSH_MSG whose id is not its payload’s',
      { type: 'PUSH_MSG', messageId: 'other', payload, present: false },
    ],
    ['PUSH_MSG without present', { type: 'PUSH_MSG', messageId: 'm1', payload }],
    ['PUSH_MSG with a non-boolean present', { type: 'PUSH_MSG', messageId: 'm1', payload, present: 'yes' }],
    ['PUSH_MSG without a payload', { type: 'PUSH_MSG', messageId: 'm1' }],
    ['a page message', { type: 'SKIP_WAITING' }],
    ['undefined', undefined],
  ])('ignores %s', (_label, data) => {
    expect(parseWorkerToPageMessage(data)).toBeNull();
  });
});

describe('parsePushPayload', () => {
  it('takes fcmMessageId when there is no messageId (spec §3) and FCM’s string counts', () => {
    expect(
      parsePushPayload({
        fcmMessageId: 'f1',
        data: { type: 'message', badge_count: '3', channelId: 'c1', extra: 'kept' },
        notification: { title: 'T', body: 'B' },
      }),
    ).toEqual({
      messageId: 'f1',
      data: { type: 'message', badge_count: 3, channelId: 'c1', extra: 'kept' },
      notification: { title: 'T', body: 'B' },
    });
  });

  it('cuts long text instead of refusing it, so a push is never silent', () => {
    const parsed = parsePushPayload({
      messageId: 'm',
      data: { type: 'message', badge_count: 1 },
      notification: { title: 't'.repeat(500), body: 'b'.repeat(5_000) },
    });
    expect(parsed?.notification.title).toHaveLength(120);
    expect(parsed?.notification.body).toHaveLength(500);
  });

  it('reads a badge count that is not a positive whole number as 0, and drops odd data', () => {
    const parsed = parsePushPayload({
      messageId: 'm',
      data: { type: 'x', badge_count: -4, 'bad key': 'v', nested: { a: 1 }, n: Number.NaN },
      notification: { title: '', body: '' },
    });
    expect(parsed?.data).toEqual({ type: 'x', badge_count: 0 });
  });

  it.each([
    ['no id', { data: { type: 'x' }, notification: { title: '', body: '' } }],
    ['no notification', { messageId: 'm', data: { type: 'x' } }],
    ['no type', { messageId: 'm', data: {}, notification: { title: '', body: '' } }],
    ['a string', 'push'],
  ])('refuses a payload with %s', (_label, raw) => {
    expect(parsePushPayload(raw)).toBeNull();
  });
});
