import { expectSaga } from 'redux-saga-test-plan';
import { all, call, delay, fork, join } from 'redux-saga/effects';
import type { Saga, Task } from 'redux-saga';
import { BackendError } from '@/backend/ports';
import { windowRefusalOf } from '@/backend/pushRefusals';
import {
  checkToken,
  createToken,
  NO_REGISTRATION_TOKEN,
  obtainToken,
  PROVIDER_TIMEOUT,
  PUSH_REFUSED_IN_WINDOW,
  releaseDeviceToken,
  saveToken,
  validateAndRefreshToken,
} from '@/sagas/push/tokenLifecycle';
import type { Obtained } from '@/sagas/push/tokenLifecycle';
import { VALIDATION_MESSAGES } from '@/store/pushSlice';
import type { ValidationResult } from '@/store/pushSlice';
import { LOCAL_STORAGE_KEYS } from '@/platform';
import { PUSH_PROVIDER_TIMEOUT_MS, TOKEN_TOUCH_INTERVAL_MS } from '@/timings';
import { BLOCKED_MESSAGE, DEVICE_ID, PUBLIC_KEY, TOKEN_A, TOKEN_B, UID } from '../../support/pushHarness';
import { START } from '../../support/virtualTime';
import { createHarness, initialState, putTypes, reducer } from './support';
import type { Harness, State, StateOptions } from './support';

const OTHER_UID = 'uidBob00000000000002';

function run(h: Harness, saga: Saga, args: unknown[], state: State = initialState()) {
  return expectSaga(saga, ...args)
    .withReducer(reducer, state)
    .provide(h.providers)
    .run({ timeout: 5_000, silenceTimeout: true });
}

/** Runs a saga, advancing virtual time `ms` while it runs. */
async function runFor(h: Harness, ms: number, saga: Saga, args: unknown[], state?: State) {
  const pending = run(h, saga, args, state);
  await h.time.advance(ms);
  return pending;
}

/** Puts a token saved `ageMs` ago for Ada into local storage and the backend, as an earlier visit left it. */
function savedEarlier(h: Harness, token = TOKEN_A, ageMs = 60_000) {
  const doc = h.backend.store.add(UID, { token, deviceId: DEVICE_ID, platform: 'web', userAgent: 'ua' });
  h.env.storage.setItem(LOCAL_STORAGE_KEYS.fcmToken, token);
  h.env.storage.setItem(
    LOCAL_STORAGE_KEYS.fcmTokenRecord,
    JSON.stringify({ uid: UID, docId: doc.id, syncedAt: START - ageMs }),
  );
  h.backend.store.reads = 0;
  h.backend.store.writes = 0;
  return doc;
}

describe('createToken', () => {
  it('asks the provider with the public key and the app’s own registration', async () => {
    const h = createHarness();
    const { returnValue } = await runFor(h, 0, createToken, [h.ctx]);
    expect(returnValue).toEqual({ token: TOKEN_A });
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledWith({
      vapidKey: PUBLIC_KEY,
      serviceWorkerRegistration: h.env.registration,
    });
  });

  it('retries 3 times, waiting 1 s, 2 s and 4 s, and retries "No registration token available"', async () => {
    const h = createHarness();
    const askedAt: number[] = [];
    h.backend.ports.pushProvider.getToken.mockImplementation(async () => {
      askedAt.push(h.time.now() - START);
      return askedAt.length < 4 ? '' : TOKEN_A;
    });
    const result = await runFor(h, 60_000, createToken, [h.ctx]);
    expect(result.returnValue).toEqual({ token: TOKEN_A });
    expect(askedAt).toEqual([0, 1_000, 3_000, 7_000]);
    const retries = (result.effects.put ?? [])
      .map((e) => e.payload.action)
      .filter((a) => a.type === 'push/tokenCreationRetried');
    expect(retries.map((a) => [a.payload.attempt, a.payload.delayMs, a.payload.error])).toEqual([
      [1, 1_000, NO_REGISTRATION_TOKEN],
      [2, 2_000, NO_REGISTRATION_TOKEN],
      [3, 4_000, NO_REGISTRATION_TOKEN],
    ]);
  });

  it('gives up after the third retry with the last error', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockRejectedValue(new Error('push service unreachable'));
    const { returnValue } = await runFor(h, 60_000, createToken, [h.ctx]);
    expect(returnValue).toEqual({ error: 'push service unreachable', blocked: false });
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(4);
  });

  it('bounds a provider that never answers with a timeout on every attempt', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockImplementation(() => new Promise(() => undefined));
    const { returnValue } = await runFor(h, 10 * 60_000, createToken, [h.ctx]);
    expect(returnValue).toEqual({ error: PROVIDER_TIMEOUT, blocked: false });
    // 4 attempts of 10 s each plus 1 + 2 + 4 s between them.
    expect(h.time.requested.filter((ms) => ms === PUSH_PROVIDER_TIMEOUT_MS).length).toBeGreaterThanOrEqual(4);
    expect(h.time.live()).toEqual([]);
  });

  it.each([
    ['an empty token', ''],
    ['a token that is not a string', { token: TOKEN_A }],
    ['a token with spaces', 'not a token at all, clearly'],
  ])('treats %s as no token and retries', async (_label, answer) => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockResolvedValue(answer as string);
    const { returnValue } = await runFor(h, 60_000, createToken, [h.ctx]);
    expect(returnValue).toEqual({ error: NO_REGISTRATION_TOKEN, blocked: false });
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(4);
  });

  it('stops at once, blocked, when the permission is revoked between attempts', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockImplementation(async () => {
      h.env.permission = 'denied';
      return '';
    });
    const result = await runFor(h, 60_000, createToken, [h.ctx]);
    expect(result.returnValue).toEqual({ error: BLOCKED_MESSAGE, blocked: true });
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
  });

  it('does not retry a provider that refuses for a blocked permission', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockRejectedValue(
      Object.assign(new Error('Registration failed - permission denied'), { name: 'NotAllowedError' }),
    );
    const { returnValue } = await runFor(h, 60_000, createToken, [h.ctx]);
    expect(returnValue).toEqual({ error: BLOCKED_MESSAGE, blocked: true });
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
  });

  it('names a private window’s refusal (granted, yet "permission denied") and does not retry it', async () => {
    const h = createHarness();
    // As both adapters report the browser's AbortError (src/backend/pushRefusals.ts).
    h.backend.ports.pushProvider.getToken.mockRejectedValue(
      windowRefusalOf(new DOMException('Registration failed - permission denied', 'AbortError')),
    );
    const { returnValue } = await runFor(h, 60_000, createToken, [h.ctx]);
    expect(returnValue).toEqual({ error: PUSH_REFUSED_IN_WINDOW, blocked: false });
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
  });

  it('refuses to register a messaging worker where push is disabled (development hosts)', async () => {
    const h = createHarness({ environmentEnabled: false });
    const { returnValue } = await runFor(h, 60_000, createToken, [h.ctx]);
    expect((returnValue as { error: string }).error).toMatch(/blocked in development/);
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
  });
});

describe('obtainToken (the global lock)', () => {
  function* threeCallers(h: Harness) {
    const tasks: Task[] = yield all([
      fork(obtainToken, h.ctx),
      fork(obtainToken, h.ctx),
      fork(obtainToken, h.ctx),
    ]);
    return (yield join(tasks)) as Obtained[];
  }

  it('lets three concurrent callers share one provider call and its result', async () => {
    const h = createHarness();
    let answer!: (token: string) => void;
    h.backend.ports.pushProvider.getToken.mockImplementation(
      () => new Promise<string>((resolve) => (answer = resolve)),
    );
    const pending = run(h, threeCallers, [h]);
    await h.time.flush();
    answer(TOKEN_B);
    const { returnValue } = await pending;
    expect(returnValue).toEqual([{ token: TOKEN_B }, { token: TOKEN_B }, { token: TOKEN_B }]);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
  });

  it('shares a failure too, and a later call starts a fresh creation (no stuck lock)', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockRejectedValue(new Error('nope'));
    const first = await runFor(h, 60_000, threeCallers, [h]);
    expect(first.returnValue).toEqual(Array(3).fill({ error: 'nope', blocked: false }));
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(4);
    h.backend.ports.pushProvider.getToken.mockResolvedValue(TOKEN_A);
    const second = await runFor(h, 0, obtainToken, [h.ctx]);
    expect(second.returnValue).toEqual({ token: TOKEN_A });
  });

  it('records a failure and a block in the push slice', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockRejectedValue(
      Object.assign(new Error('denied'), { name: 'NotAllowedError' }),
    );
    const { storeState } = await runFor(h, 0, obtainToken, [h.ctx]);
    expect((storeState as State).push).toMatchObject({ tokenStatus: 'blocked', lastError: BLOCKED_MESSAGE });
  });
});

describe('saveToken', () => {
  it('saves an active document for this device and keeps the token, then waits 0.5 s', async () => {
    const h = createHarness();
    const pending = run(h, saveToken, [h.ctx, UID, TOKEN_A]);
    await h.time.advance(499);
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBe(TOKEN_A);
    const { returnValue } = await (h.time.advance(1), pending);
    expect(h.backend.store.of(UID)).toEqual([
      {
        id: (returnValue as { id: string }).id,
        token: TOKEN_A,
        deviceId: DEVICE_ID,
        platform: 'web',
        userAgent: h.env.userAgent,
        status: 'active',
        createdAt: START,
        lastUsed: START,
      },
    ]);
    expect(h.time.requested).toEqual([500]);
  });

  it('leaves the replaced document to the backend, and keeps the document the backend answered', async () => {
    const h = createHarness();
    const old = savedEarlier(h, TOKEN_A);
    const { returnValue } = await runFor(h, 1_000, saveToken, [h.ctx, UID, TOKEN_B]);
    const saved = returnValue as { id: string };
    // One document for this device: the backend's save replaced the old one (spec §4).
    expect(h.backend.store.of(UID).map((d) => [d.id, d.token])).toEqual([[saved.id, TOKEN_B]]);
    expect(saved.id).not.toBe(old.id);
    expect(h.backend.ports.pushTokens.deleteToken).not.toHaveBeenCalled();
    expect(JSON.parse(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmTokenRecord) ?? 'null')).toEqual({
      uid: UID,
      docId: saved.id,
      syncedAt: START,
    });
  });

  it('throws, keeping nothing, when the backend answers without a document id', async () => {
    const h = createHarness();
    h.backend.ports.pushTokens.addToken.mockResolvedValue({ token: TOKEN_A } as never);
    jest.spyOn(console, 'error').mockImplementation(() => undefined); // redux-saga logs the thrown error
    const failed = expect(run(h, saveToken, [h.ctx, UID, TOKEN_A])).rejects.toThrow(/no document id/);
    await h.time.advance(1_000);
    await failed;
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBeNull();
  });
});

describe('validateAndRefreshToken', () => {
  async function validate(h: Harness, userId: string | null = UID, options: StateOptions = {}) {
    const result = await runFor(h, 60_000, validateAndRefreshToken, [h.ctx, userId], initialState(options));
    return { result: result.returnValue as ValidationResult, state: result.storeState as State, run: result };
  }

  it("answers 'No user ID provided' without a user id", async () => {
    const h = createHarness();
    const { result } = await validate(h, null);
    expect(result).toEqual({ success: false, message: 'No user ID provided', rateLimited: false });
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
  });

  it("answers 'FCM disabled for current environment' where push is off for the host", async () => {
    const h = createHarness({ environmentEnabled: false });
    const { result } = await validate(h, UID, { environmentEnabled: false });
    expect(result).toEqual({
      success: false,
      message: 'FCM disabled for current environment',
      rateLimited: false,
    });
  });

  it("generates a token when none is stored: 'No stored token found, generated new token'", async () => {
    const h = createHarness();
    const { result, state } = await validate(h);
    expect(result).toEqual({ success: true, message: VALIDATION_MESSAGES.generated, rateLimited: false });
    expect(h.backend.store.of(UID)).toHaveLength(1);
    expect(state.push).toMatchObject({ tokenStatus: 'active', lastValidation: { ...result, at: START } });
  });

  it("answers 'Failed to generate new token' when none is stored and none can be created", async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockResolvedValue('');
    const { result, state } = await validate(h);
    expect(result).toEqual({ success: false, message: VALIDATION_MESSAGES.failed, rateLimited: false });
    expect(state.push).toMatchObject({ tokenStatus: 'failed', lastError: NO_REGISTRATION_TOKEN });
    expect(h.backend.store.writes).toBe(0);
  });

  it("answers 'Current token is valid' locally, with no backend read or write, when nothing changed", async () => {
    const h = createHarness();
    savedEarlier(h);
    const { result } = await validate(h);
    expect(result).toEqual({ success: true, message: VALIDATION_MESSAGES.valid, rateLimited: false });
    expect([h.backend.store.reads, h.backend.store.writes]).toEqual([0, 0]);
  });

  it('touches lastUsed once the stamp is a day old', async () => {
    const h = createHarness();
    const doc = savedEarlier(h, TOKEN_A, TOKEN_TOUCH_INTERVAL_MS);
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.valid);
    expect(h.backend.ports.pushTokens.touchToken).toHaveBeenCalledWith(UID, doc.id);
    expect(h.backend.store.writes).toBe(1);
    expect(JSON.parse(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmTokenRecord)!)).toEqual({
      uid: UID,
      docId: doc.id,
      syncedAt: START,
    });
  });

  it("replaces a token the provider no longer gives: 'Token was invalid and has been refreshed'", async () => {
    const h = createHarness();
    const old = savedEarlier(h, TOKEN_A);
    h.backend.ports.pushProvider.getToken.mockResolvedValue(TOKEN_B);
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.refreshed);
    expect(h.backend.store.of(UID).map((d) => d.token)).toEqual([TOKEN_B]);
    expect(h.backend.store.docs.has(old.id)).toBe(false);
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBe(TOKEN_B);
  });

  it('saves the token again when its document is gone (removed elsewhere, or pruned)', async () => {
    const h = createHarness();
    const old = savedEarlier(h, TOKEN_A, TOKEN_TOUCH_INTERVAL_MS + 1);
    h.backend.store.docs.delete(old.id);
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.refreshed);
    expect(h.backend.store.of(UID).map((d) => d.token)).toEqual([TOKEN_A]);
  });

  it("answers 'Failed to generate new token after validation failure' when the stored token cannot be checked", async () => {
    const h = createHarness();
    savedEarlier(h);
    h.backend.ports.pushProvider.getToken.mockRejectedValue(new Error('offline'));
    const { result } = await validate(h);
    expect(result).toEqual({
      success: false,
      message: VALIDATION_MESSAGES.failedAfterValidation,
      rateLimited: false,
    });
  });

  it('keeps a valid token valid when only the stamp could not be refreshed (offline), and retries later', async () => {
    const h = createHarness();
    savedEarlier(h, TOKEN_A, TOKEN_TOUCH_INTERVAL_MS);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    h.backend.ports.pushTokens.touchToken.mockRejectedValue(new BackendError('UNAVAILABLE', 'offline'));
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.valid);
    expect(JSON.parse(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmTokenRecord)!).syncedAt).toBe(
      START - TOKEN_TOUCH_INTERVAL_MS,
    );
  });

  it('counts calls within 10 s as valid without looking (rate-limited), and looks again after', async () => {
    const h = createHarness();
    savedEarlier(h);
    function* threeChecks() {
      const first: ValidationResult = yield call(validateAndRefreshToken, h.ctx, UID);
      yield delay(9_999);
      const second: ValidationResult = yield call(validateAndRefreshToken, h.ctx, UID);
      yield delay(1);
      const third: ValidationResult = yield call(validateAndRefreshToken, h.ctx, UID);
      return [first, second, third];
    }
    const { returnValue } = await runFor(h, 60_000, threeChecks, []);
    const [first, second, third] = returnValue as ValidationResult[];
    expect(first).toEqual({ success: true, message: VALIDATION_MESSAGES.valid, rateLimited: false });
    expect(second).toEqual({ success: true, message: VALIDATION_MESSAGES.valid, rateLimited: true });
    expect(third).toEqual({ success: true, message: VALIDATION_MESSAGES.valid, rateLimited: false });
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['an object', '[object Object]'],
    ['the string null', 'null'],
    ['JSON', '{"token":"x"}'],
  ])('replaces a stored token that is %s', async (_label, stored) => {
    const h = createHarness();
    h.env.storage.setItem(LOCAL_STORAGE_KEYS.fcmToken, stored);
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.generated);
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBe(TOKEN_A);
  });

  it('adopts a legacy fcmToken and its document, refreshing the stamp once', async () => {
    const h = createHarness();
    const doc = h.backend.store.add(UID, {
      token: TOKEN_A,
      deviceId: DEVICE_ID,
      platform: 'web',
      userAgent: 'ua',
    });
    h.env.storage.setItem(LOCAL_STORAGE_KEYS.legacyFcmToken, TOKEN_A);
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.valid);
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.legacyFcmToken)).toBeNull();
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBe(TOKEN_A);
    expect(h.backend.ports.pushTokens.touchToken).toHaveBeenCalledWith(UID, doc.id);
  });

  it('saves a legacy token anew when the backend answers its document without an id', async () => {
    const h = createHarness();
    h.env.storage.setItem(LOCAL_STORAGE_KEYS.legacyFcmToken, TOKEN_A);
    h.backend.ports.pushTokens.findActiveToken.mockResolvedValue({
      token: TOKEN_A,
      status: 'active',
    } as never);
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.refreshed);
    expect(h.backend.ports.pushTokens.touchToken).not.toHaveBeenCalled();
    expect(h.backend.store.of(UID).map((d) => d.token)).toEqual([TOKEN_A]);
  });

  it('does not reuse a token stored for another account: a new one is saved for this one', async () => {
    const h = createHarness();
    h.env.storage.setItem(LOCAL_STORAGE_KEYS.fcmToken, TOKEN_A);
    h.env.storage.setItem(
      LOCAL_STORAGE_KEYS.fcmTokenRecord,
      JSON.stringify({ uid: OTHER_UID, docId: 'docOfBob000000000001', syncedAt: START }),
    );
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.generated);
    expect(h.backend.store.of(UID)).toHaveLength(1);
  });

  it('honours fcm_refresh_needed_after_sw_update: syncs a fresh token and clears the flag', async () => {
    const h = createHarness();
    savedEarlier(h);
    h.env.storage.setItem(LOCAL_STORAGE_KEYS.fcmRefreshNeededAfterSwUpdate, 'true');
    const { result } = await validate(h);
    expect(result.message).toBe(VALIDATION_MESSAGES.valid);
    expect(h.backend.store.writes).toBe(1);
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmRefreshNeededAfterSwUpdate)).toBeNull();
  });

  it('puts validationStarted then validationFinished with the time it started', async () => {
    const h = createHarness();
    savedEarlier(h);
    const { run: result } = await validate(h);
    expect(putTypes(result).filter((t) => t.startsWith('push/validation'))).toEqual([
      'push/validationStarted',
      'push/validationFinished',
    ]);
  });
});

describe('checkToken', () => {
  it('never throws: a backend failure while saving ends in a spec message and a free lock', async () => {
    const h = createHarness();
    h.backend.ports.pushTokens.addToken.mockRejectedValue(new BackendError('UNAVAILABLE', 'offline'));
    const { returnValue } = await runFor(h, 60_000, checkToken, [h.ctx, UID]);
    expect(returnValue).toEqual({ success: false, message: VALIDATION_MESSAGES.failed, rateLimited: false });
    expect(h.ctx.creation.task?.isRunning()).toBe(false);
  });
});

describe('releaseDeviceToken', () => {
  it('deletes this device’s document and the provider token, and forgets the token', async () => {
    const h = createHarness();
    savedEarlier(h);
    const { storeState } = await runFor(h, 0, releaseDeviceToken, [h.ctx, UID]);
    expect(h.backend.store.of(UID)).toEqual([]);
    expect(h.backend.ports.pushProvider.deleteToken).toHaveBeenCalledTimes(1);
    expect(h.env.storage.data.size).toBe(0);
    expect((storeState as State).push.tokenStatus).toBe('off');
  });

  it('finds the document by token when the record is missing (a legacy token)', async () => {
    const h = createHarness();
    h.backend.store.add(UID, { token: TOKEN_A, deviceId: DEVICE_ID, platform: 'web', userAgent: 'ua' });
    h.env.storage.setItem(LOCAL_STORAGE_KEYS.fcmToken, TOKEN_A);
    await runFor(h, 0, releaseDeviceToken, [h.ctx, UID]);
    expect(h.backend.store.of(UID)).toEqual([]);
  });

  it('ends within its bounds when the backend and the provider hang (offline sign-out)', async () => {
    const h = createHarness();
    savedEarlier(h);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    h.backend.ports.pushTokens.deleteToken.mockImplementation(() => new Promise(() => undefined));
    h.backend.ports.pushProvider.deleteToken.mockImplementation(() => new Promise(() => undefined));
    const result = await runFor(h, 60_000, releaseDeviceToken, [h.ctx, UID]);
    expect(putTypes(result)).toContain('push/deviceReleased');
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBeNull();
    expect(h.time.live()).toEqual([]);
  });

  it('cancels a creation in flight so nothing is saved behind the delete', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockResolvedValue('');
    function* signOutDuringRetry() {
      const creating: Task = yield fork(obtainToken, h.ctx);
      yield delay(1_500); // inside the 2 s wait before the second retry
      yield call(releaseDeviceToken, h.ctx, UID);
      return creating.isRunning();
    }
    const { returnValue } = await runFor(h, 60_000, signOutDuringRetry, [], initialState());
    expect(returnValue).toBe(false);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(2);
    expect(h.backend.store.writes).toBe(0);
    expect(h.time.live()).toEqual([]);
  });
});
