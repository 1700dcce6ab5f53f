import { parsePageToWorkerMessage } from '@/protocol/messages';

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
