// Property-based: random bodies, queries and path params at every route of core/wire.ts's API, with and without a
// session. Whatever arrives, the answer is 200/400/401/403/404/429 with JSON that is a success or a well-formed
// ErrorBody whose HTTP status matches its error status, and no body ever carries a stack trace or a file path.
import fc from 'fast-check';
import { ERROR_STATUSES, HTTP_STATUS } from '../../core/errors';
import { API } from '../../core/wire';
import { withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { pushTokens } from '../../drivers/webPushTokens';
import { newDocumentId } from '../../core/ids';

const TOKENS = pushTokens(['fuzz-000000000']);

const NUM_RUNS = 30;
const DAY = 86_400_000;
/** An operation id the fuzzer has not sent before. */
const operation = (): string => newDocumentId();
const ALLOWED = [200, 400, 401, 403, 404, 429];

let server: TestServer;
let ids: DemoIds;
/** One of the demo consultant's services, and the start of the hour the fuzzer books (a Monday, 10:00 London). */
let serviceId = '';
const MONDAY_TEN = Date.UTC(2026, 0, 19, 10);

withDemoServer(
  (world) => {
    ({ server, ids } = world);
    serviceId =
      server.query<{ id: string }>('SELECT id FROM services ORDER BY title DESC LIMIT 1')[0]?.id ?? '';
  },
  { once: true },
);

const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const KNOWN_KEYS = [
  'data',
  'email',
  'password',
  'displayName',
  'refreshToken',
  'nickname',
  'notificationSettings',
  'enabled',
  'delivery',
  'channels',
  'token',
  'deviceId',
  'platform',
  'userAgent',
  'text',
  'channel_id',
  'channel_owner_id',
  'userId',
  'isOwner',
  'isAdmin',
  'credits',
  'passCount',
  'domainId',
  'mine',
  'channelId',
  'limit',
  'before',
  'status',
  'ticket',
  // The practice's routes.
  'serviceId',
  'startsAt',
  'paymentMethod',
  'offerId',
  'expectedCredits',
  'clientTimeZone',
  'operationId',
  'timeZone',
  'hours',
  'durationMinutes',
  'priceCredits',
  'toUid',
  'from',
  'to',
];

const key = fc.oneof(
  fc.constantFrom(...NASTY_KEYS),
  fc.constantFrom(...KNOWN_KEYS),
  fc.string({ maxLength: 12 }),
);
const huge = fc.integer({ min: 1, max: 3 }).map((n) => 'A'.repeat([5_000, 70_000, 1024 * 1024][n - 1] ?? 10));
const leaf = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('member@qupm.demo', 'qupm-demo', 'push', 'web', 'active', 'true', '1'),
  fc.constantFrom('@@member@@', '@@self@@', '@@strategy@@', '@@service@@'),
  huge,
);
const { value: jsonish } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    // Deeply nested arrays.
    fc
      .integer({ min: 50, max: 2000 })
      .map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
  ),
}));

/** Bodies each route accepts, so that random mutations also run its success path. */
const VALID_BODIES: Partial<Record<keyof typeof API, fc.Arbitrary<Record<string, unknown>>>> = {
  // A fresh email each time: sign-up succeeds (never an already-taken email, which is ALREADY_EXISTS).
  signUp: fc.uuid().map((id) => ({ email: `f-${id}@example.com`, password: 'long enough pw' })),
  signIn: fc.constantFrom(
    { email: 'member@qupm.demo', password: 'qupm-demo' },
    { email: 'member@qupm.demo', password: 'nope' },
  ),
  refresh: fc.constant({ refreshToken: 'not-a-real-refresh-token' }),
  signOut: fc.constant({ refreshToken: 'not-a-real-refresh-token' }),
  updateUser: fc.constantFrom<Record<string, unknown>>(
    { nickname: 'Fuzz' },
    { displayName: 'Fuzz Person' },
    { notificationSettings: { enabled: false, delivery: { channels: [] } } },
  ),
  addToken: fc.constant({
    token: TOKENS['fuzz-000000000'],
    deviceId: 'fuzz-device',
    platform: 'web',
    userAgent: 'fuzz',
  }),
  sendMessage: fc.constant({ text: 'hello from the fuzzer' }),
  // The practice: a new operation id each time, so that a body reaches its success path (a reused one is
  // ALREADY_EXISTS, which the fuzzer's statuses do not include).
  createService: fc.uuid().map((id) => ({
    title: `Fuzz ${id}`,
    durationMinutes: 30,
    priceCredits: 1,
    operationId: operation(),
  })),
  updateService: fc.constantFrom<Record<string, unknown>>({ description: 'fuzzed' }, { status: 'active' }),
  setAvailability: fc.constant({
    timeZone: 'Europe/London',
    hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
  }),
  requestBooking: fc.integer({ min: 0, max: 20 }).map((step) => ({
    serviceId: '@@service@@',
    startsAt: MONDAY_TEN + step * 15 * 60_000,
    paymentMethod: 'credits',
    clientTimeZone: 'Europe/Paris',
    operationId: operation(),
  })),
  confirmBooking: fc.constant(null).map(() => ({ operationId: operation() })),
  cancelBooking: fc.constant(null).map(() => ({ operationId: operation() })),
  proposeBookingTime: fc.constant(null).map(() => ({ startsAt: MONDAY_TEN + DAY, operationId: operation() })),
  grantBalance: fc.constant(null).map(() => ({ userId: '@@member@@', credits: 1, operationId: operation() })),
  handOverChannel: fc.constant({ toUid: '@@member@@' }),
  callable: fc.constantFrom<Record<string, unknown>>(
    { data: { channel_id: '@@strategy@@' } },
    { data: { channel_id: '@@strategy@@', channel_owner_id: '@@visitor@@' } },
    { data: null },
    { data: { userId: '@@self@@' } },
  ),
};

const nearlyValid = (valid: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(valid, fc.option(fc.tuple(key, jsonish), { freq: 2 })).map(([body, extra]) => ({
    // Spread (not Object.assign) so a `__proto__` key stays an own key and reaches the JSON.
    text: JSON.stringify(extra ? { ...body, ...Object.fromEntries([extra]) } : body),
    type: 'application/json',
  }));

/** A body as text: JSON of random values (with own __proto__ keys), broken JSON, or nothing. */
const randomBody = fc.oneof(
  jsonish.map((value) => ({ text: JSON.stringify(value) ?? 'null', type: 'application/json' })),
  fc
    .dictionary(key, jsonish, { maxKeys: 4 })
    .map((value) => ({ text: JSON.stringify({ data: value }), type: 'application/json' })),
  fc
    .constantFrom(
      '{"__proto__": {"isAdmin": true}}',
      '{"data": {"constructor": {"prototype": {"x": 1}}}}',
      '{',
      '',
      'null',
    )
    .map((text) => ({ text, type: 'application/json' })),
  fc.string({ maxLength: 50 }).map((text) => ({ text, type: 'text/plain' })),
  fc.constant(undefined),
);

const param = fc.oneof(
  { arbitrary: fc.constant('@@self@@'), weight: 2 },
  fc.constantFrom(
    '@@member@@',
    '@@visitor@@',
    '@@strategy@@',
    '@@invitation@@',
    '@@service@@',
    'AAAAAAAAAAAAAAAAAAAA',
  ),
  fc.constantFrom(
    '__proto__',
    'constructor',
    '..',
    '%2e%2e',
    'check_channel_permissions',
    'get_user_active_offers',
    'clear_pending_notifications',
  ),
  fc.string({ minLength: 1, maxLength: 30 }),
);

const query = fc.dictionary(
  key,
  fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('true', '1', 'active', 'strategy-studio')),
  {
    maxKeys: 3,
  },
);

type Role = 'member' | 'admin' | 'visitor' | 'consultant';

function resolve(value: string, role: Role): string {
  return value
    .replaceAll('@@self@@', ids.uid[role])
    .replaceAll('@@member@@', ids.uid.member)
    .replaceAll('@@visitor@@', ids.uid.visitor)
    .replaceAll('@@strategy@@', ids.strategy)
    .replaceAll('@@invitation@@', ids.pendingInvitation)
    .replaceAll('@@service@@', serviceId);
}

const routes = (Object.keys(API) as Array<keyof typeof API>).map((name) => {
  const [method = 'GET', rawPath = '/'] = API[name].split(' ');
  const valid = VALID_BODIES[name];
  const body = valid
    ? fc.oneof({ arbitrary: nearlyValid(valid), weight: 2 }, { arbitrary: randomBody, weight: 1 })
    : randomBody;
  return { name, method, path: rawPath.split('?')[0] ?? '/', body };
});

function assertWellFormed(statusCode: number, text: string, contentType = ''): void {
  expect(ALLOWED).toContain(statusCode);
  expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|\/work\/|__tests__|server\//);
  // The pages a person opens from an email (the unsubscribe link) answer HTML, errors included.
  if (contentType.startsWith('text/html')) {
    expect(text.startsWith('<!doctype html>')).toBe(true);
    return;
  }
  const parsed = JSON.parse(text) as unknown;
  if (statusCode === 200) {
    expect(parsed).not.toBeNull();
    expect(typeof parsed).toBe('object');
    expect(Object.keys(parsed as object)).not.toContain('error');
    return;
  }
  const { error, ...rest } = parsed as {
    error: { status: string; message: string; details?: { reason: string } };
  };
  expect(rest).toEqual({});
  expect(ERROR_STATUSES).toContain(error.status);
  expect(HTTP_STATUS[error.status as keyof typeof HTTP_STATUS]).toBe(statusCode);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.message.length).toBeLessThanOrEqual(300);
  expect(Object.keys(error).every((k) => ['status', 'message', 'details'].includes(k))).toBe(true);
  if (error.details !== undefined) expect(Object.keys(error.details)).toEqual(['reason']);
}

describe.each(routes)('$name ($method $path)', ({ method, path, body }) => {
  it.each([
    ['without a session', false],
    ['with a session', true],
  ])('answers random input %s with an allowed status and a well-formed body', async (_label, withSession) => {
    await fc.assert(
      fc.asyncProperty(
        body,
        query,
        param,
        param,
        fc.constantFrom<Role>('member', 'admin', 'visitor', 'consultant'),
        async (sent, q, p1, p2, role) => {
          const url =
            path
              .replace(':uid', encodeURIComponent(resolve(p1, role)))
              .replace(':id', encodeURIComponent(resolve(p2, role)))
              .replace(':name', encodeURIComponent(resolve(p1, role))) +
            (Object.keys(q).length > 0
              ? `?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, resolve(v, role)])).toString()}`
              : '');
          const headers: Record<string, string> = {};
          if (withSession) headers.authorization = `Bearer ${ids.token[role]}`;
          if (sent) headers['content-type'] = sent.type;
          const res = await server.app.inject({
            method: method as 'GET',
            url,
            headers,
            ...(sent ? { payload: resolve(sent.text, role) } : {}),
          });
          assertWellFormed(res.statusCode, res.body, String(res.headers['content-type'] ?? ''));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
