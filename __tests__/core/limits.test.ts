// The limits of core/limits.ts that the backends, firestore.rules (__tests__/rules/limits.test.ts) and the client's
// forms share: the numbers of the spec and of docs/decisions/, and the token pattern, at their boundaries.
import { DEVICE_ID_PATTERN, LIMITS, PUSH_TOKEN_PATTERN } from '@core/limits';
import { isPlausiblePushToken } from '@/platform/fcmToken';

describe('LIMITS', () => {
  it('holds the numbers the rules are written to', () => {
    expect(LIMITS).toMatchObject({
      messageMax: 4000,
      discountMin: 1,
      discountMax: 100,
      invitationGrantMax: 1000,
      emailMax: 254,
      passwordMin: 8,
      passwordMax: 128,
      pushTokenMin: 16,
      pushTokenMax: 8192,
    });
  });
});

describe('PUSH_TOKEN_PATTERN and the token sizes', () => {
  it.each([
    ['an FCM-like token', `${'a'.repeat(140)}:APA91b-_x.y`, true],
    ['exactly 16 characters', 'a'.repeat(16), true],
    ['15 characters', 'a'.repeat(15), false],
    ['exactly 8192 characters', 'a'.repeat(8192), true],
    ['8193 characters', 'a'.repeat(8193), false],
    ['white space', `${'a'.repeat(20)} b`, false],
    ['JSON', '{"token":"aaaaaaaaaaaaaaaa"}', false],
  ])('%s: the device keeps it exactly when the backends would take it (%s)', (_label, token, expected) => {
    const backendsTake =
      token.length >= LIMITS.pushTokenMin &&
      token.length <= LIMITS.pushTokenMax &&
      PUSH_TOKEN_PATTERN.test(token);
    expect(backendsTake).toBe(expected);
    expect(isPlausiblePushToken(token)).toBe(expected);
  });

  it('device ids are letters, digits and dashes', () => {
    expect(DEVICE_ID_PATTERN.test('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(DEVICE_ID_PATTERN.test('a_b')).toBe(false);
  });
});
