// save_push_token, the one writer of token documents on Firebase (firestore.rules let no client create one),
// wrapped with firebase-functions-test (offline) over the real Firestore repository on the in-memory Admin SDK
// fake: one document per (user, device), a browser's token under one account, decided in one transaction.
import { HttpsError } from 'firebase-functions/v2/https';
import type { PushTokenDoc } from '../../core/model';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { putToken } from './support/seed';
import { NOW, UID, requestAs, seededBackend } from './support/world';
import type { Who } from './support/world';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
});
afterAll(() => functionsTest.cleanup());

const TOKEN_A = 'fcm-token-device-one-aaaaaaaa:APA91b';
const TOKEN_B = 'fcm-token-device-one-bbbbbbbb:APA91b';
const input = { token: TOKEN_A, deviceId: 'device-1', platform: 'web', userAgent: 'Tokens/1.0' };

function save(who: Who, data: unknown): Promise<PushTokenDoc> {
  return Promise.resolve(functionsTest.wrap(backend.fns.save_push_token)(requestAs(who, data)));
}
const mine = (who: Who = 'member') => ({ userId: UID[who], ...input });
/** The stored token documents, by path. */
const stored = () =>
  Object.fromEntries(
    backend.store
      .paths()
      .filter((path) => path.includes('/FCMTokens/'))
      .map((path) => [path, backend.store.get(path)]),
  );

describe('save_push_token', () => {
  it('stores an active token document with the backend’s time, and answers it', async () => {
    const saved = await save('member', mine());
    expect(saved).toStrictEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      ...input,
      status: 'active',
      createdAt: NOW,
      lastUsed: NOW,
    });
    expect(Object.keys(stored())).toEqual([`users/${UID.member}/FCMTokens/${saved.id}`]);
    expect(stored()[`users/${UID.member}/FCMTokens/${saved.id}`]).toMatchObject({
      token: TOKEN_A,
      deviceId: 'device-1',
      status: 'active',
    });
  });

  it('answers the document there is for the same token on the same device, and writes nothing', async () => {
    const first = await save('member', mine());
    const before = stored();
    backend.clock.now += 60_000;
    expect(await save('member', mine())).toStrictEqual(first);
    expect(stored()).toStrictEqual(before);
  });

  it("replaces the device's document when the device has a new token, and leaves the person's other devices", async () => {
    putToken(backend.store, { uid: UID.member, id: 'TokenMemberPhone0001', token: 'phone', lastUsed: NOW });
    const first = await save('member', mine());
    const next = await save('member', { ...mine(), token: TOKEN_B });
    expect(next.id).not.toBe(first.id);
    expect(Object.keys(stored()).sort()).toEqual(
      [
        `users/${UID.member}/FCMTokens/${next.id}`,
        `users/${UID.member}/FCMTokens/TokenMemberPhone0001`,
      ].sort(),
    );
  });

  it('removes the same browser token from every other account (a shared device)', async () => {
    putToken(backend.store, { uid: UID.stranger, id: 'TokenStranger0000001', token: TOKEN_A, lastUsed: NOW });
    putToken(backend.store, { uid: UID.stranger, id: 'TokenStranger0000002', token: 'other', lastUsed: NOW });
    putToken(backend.store, {
      uid: UID.consultant,
      id: 'TokenConsultant00001',
      token: TOKEN_A,
      lastUsed: NOW,
    });
    const saved = await save('member', mine());
    expect(Object.keys(stored()).sort()).toEqual(
      [
        `users/${UID.member}/FCMTokens/${saved.id}`,
        `users/${UID.stranger}/FCMTokens/TokenStranger0000002`,
      ].sort(),
    );
  });

  it('leaves one document when two saves for one device race', async () => {
    const [a, b] = await Promise.all([save('member', mine()), save('member', { ...mine(), token: TOKEN_B })]);
    const paths = Object.keys(stored());
    expect(paths).toHaveLength(1);
    expect([a.id, b.id].map((id) => `users/${UID.member}/FCMTokens/${id}`)).toContain(paths[0]);
  });

  it('heals a device that a bygone race left with two documents: one stays', async () => {
    putToken(backend.store, {
      uid: UID.member,
      id: 'TokenOld000000000001',
      token: TOKEN_A,
      deviceId: 'device-1',
      lastUsed: NOW,
    });
    putToken(backend.store, {
      uid: UID.member,
      id: 'TokenOld000000000002',
      token: 'stale',
      deviceId: 'device-1',
      lastUsed: NOW,
    });
    const saved = await save('member', mine());
    expect(saved.id).toBe('TokenOld000000000001');
    expect(Object.keys(stored())).toEqual([`users/${UID.member}/FCMTokens/TokenOld000000000001`]);
  });

  it("refuses someone else's account as permission-denied, and writes nothing", async () => {
    const error = await save('stranger', mine('member')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpsError);
    expect((error as HttpsError).code).toBe('permission-denied');
    expect(stored()).toEqual({});
  });

  it.each([
    ['a short token', { token: 'short' }],
    ['an unknown platform', { platform: 'desktop' }],
    ['a device id over 64 characters', { deviceId: 'd'.repeat(65) }],
    ['an extra field', { isOwner: true }],
    ['no userId', { userId: undefined }],
  ])('refuses %s as invalid-argument, and writes nothing', async (_label, change) => {
    const error = await save('member', { ...mine(), ...change }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as HttpsError).code).toBe('invalid-argument');
    expect(stored()).toEqual({});
  });

  it('refuses a caller without a session', async () => {
    const error = await Promise.resolve(
      functionsTest.wrap(backend.fns.save_push_token)(requestAs(null, mine())),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as HttpsError).code).toBe('unauthenticated');
  });
});
