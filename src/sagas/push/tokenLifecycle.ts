// The push-token lifecycle (spec §4 token lifecycle, §5, §8, §9): create a token with the provider under a global
// lock with retries, save it as this device's one active token document, validate and refresh it cheaply, and
// release it at sign-out. Every worker returns its failures as results (spec §8 messages), never throws, so no
// lock is ever left held.
import { call, delay, put, race, select } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import { BackendError } from '@/backend/ports';
import {
  clearRefreshNeededAfterSwUpdate,
  clearStoredPushToken,
  isPlausiblePushToken,
  isRefreshNeededAfterSwUpdate,
  readPushTokenRecord,
  readStoredPushToken,
  storePushTokenWithRecord,
} from '@/platform';
import type { Platform, PushTokenRecord } from '@/platform';
import { selectDeviceId, selectPlatform } from '@/store/appSlice';
import {
  deviceReleased,
  permissionBlocked,
  pushProviderRefused,
  selectLastValidatedAt,
  selectPushEnvironmentEnabled,
  tokenCreationFailed,
  tokenCreationRetried,
  tokenCreationStarted,
  tokenSaved,
  validationFinished,
  validationStarted,
  VALIDATION_MESSAGES,
  PUSH_FAILURES,
} from '@/store/pushSlice';
import type {
  PermissionState,
  ProviderRefusal,
  ValidationMessage,
  ValidationResult,
} from '@/store/pushSlice';
import { parseDocumentId } from '@core/ids';
import type { PushTokenDoc } from '@core/model';
import {
  AFTER_SAVE_WAIT_MS,
  PUSH_PROVIDER_TIMEOUT_MS,
  SIGN_OUT_CLEANUP_TIMEOUT_MS,
  TOKEN_CREATION_RETRIES,
  TOKEN_RETRY_BASE_DELAY_MS,
  TOKEN_TOUCH_INTERVAL_MS,
  TOKEN_VALIDATION_COOLDOWN_MS,
} from '@/timings';
import type { PushEnv } from '@/platform/pushEnv';
import { cancelShared, runShared } from './sharedTask';
import type { SharedTask } from './sharedTask';

export interface PushContext {
  backend: Backend;
  env: PushEnv;
  /** spec §4: the global lock of token creation. */
  creation: SharedTask;
  /** Validations share one run the same way, so two triggers at once never save twice. */
  validation: SharedTask;
}

/** spec §8: failing to get a token yields this, and is retried. */
export const NO_REGISTRATION_TOKEN = PUSH_FAILURES.noToken;
export const PROVIDER_TIMEOUT = PUSH_FAILURES.providerTimeout;
export const WORKER_NOT_READY = PUSH_FAILURES.workerNotReady;
export const NOT_ALLOWED = PUSH_FAILURES.notAllowed;
/** Chromium refuses push in private windows, saying "permission denied" although the permission is granted. */
export const PUSH_REFUSED_IN_WINDOW = PUSH_FAILURES.refusedInWindow;

export type Obtained = { token: string } | { error: string; blocked: boolean };

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

/** A refusal for a blocked permission: the browser's NotAllowedError, or the provider's permission-denied. */
function isPermissionRefusal(error: unknown): boolean {
  if (error instanceof BackendError) return error.status === 'PERMISSION_DENIED';
  return (error as { name?: unknown } | null)?.name === 'NotAllowedError';
}

/** spec §8: the provider's own refusal of this browser (FCM's unsupported-browser, indexed-db-unsupported). */
function providerRefusalOf(error: unknown): ProviderRefusal | null {
  if (!(error instanceof BackendError)) return null;
  if (error.reason === 'push-unsupported-browser') return 'unsupportedBrowser';
  if (error.reason === 'push-indexed-db-unsupported') return 'noIndexedDb';
  return null;
}

/**
 * The browser's refusal of push for this window (a private window), as both adapters report it
 * (src/backend/pushRefusals.ts).
 */
function isWindowRefusal(error: unknown): boolean {
  return error instanceof BackendError && error.reason === 'push-refused-in-window';
}

/** One ask of the provider, bounded by a timeout (offline, a subscribe never answers). */
export function* askProvider(ctx: PushContext) {
  const { pushProvider } = ctx.backend;
  const vapidKey: string = yield call([pushProvider, pushProvider.getPublicKey]);
  const ready: { registration?: ServiceWorkerRegistration } = yield race({
    registration: call([ctx.env, ctx.env.messagingRegistration]),
    timeout: delay(PUSH_PROVIDER_TIMEOUT_MS),
  });
  if (!ready.registration) throw new Error(WORKER_NOT_READY);
  const answer: { token?: unknown } = yield race({
    token: call([pushProvider, pushProvider.getToken], {
      vapidKey,
      serviceWorkerRegistration: ready.registration,
    }),
    timeout: delay(PUSH_PROVIDER_TIMEOUT_MS),
  });
  if (!('token' in answer)) throw new Error(PROVIDER_TIMEOUT);
  // An empty or malformed token is no token (spec §5: a missing token aborts with failure).
  if (!isPlausiblePushToken(answer.token)) throw new Error(NO_REGISTRATION_TOKEN);
  return answer.token;
}

/**
 * spec §4, §9: asks the provider for a token, retrying 3 times with delays of 1 s, 2 s and 4 s. Stops at once when
 * the permission is no longer granted (revoked while in flight) or the provider refuses it as blocked.
 */
export function* createToken(ctx: PushContext) {
  let lastError: string = NO_REGISTRATION_TOKEN;
  for (let attempt = 0; attempt <= TOKEN_CREATION_RETRIES; attempt += 1) {
    const permission: PermissionState = yield call([ctx.env, ctx.env.readPermission]);
    if (permission !== 'granted') {
      const blocked = permission === 'denied';
      const refused: Obtained = {
        error: blocked ? ctx.backend.pushProvider.permissionBlockedMessage : NOT_ALLOWED,
        blocked,
      };
      return refused;
    }
    yield put(tokenCreationStarted({ attempt }));
    try {
      const token: string = yield call(askProvider, ctx);
      return { token } as Obtained;
    } catch (error) {
      if (isPermissionRefusal(error)) {
        return { error: ctx.backend.pushProvider.permissionBlockedMessage, blocked: true } as Obtained;
      }
      // Retrying cannot change the window the app runs in.
      if (isWindowRefusal(error)) return { error: PUSH_REFUSED_IN_WINDOW, blocked: false } as Obtained;
      // spec §8: the provider refuses this browser itself: setup stops here, and the closed gate keeps it
      // stopped (no retry, no periodic or visibility check).
      const refusal = providerRefusalOf(error);
      if (refusal !== null) {
        yield put(pushProviderRefused({ refusal, message: messageOf(error) }));
        return { error: messageOf(error), blocked: false } as Obtained;
      }
      lastError = messageOf(error);
    }
    if (attempt < TOKEN_CREATION_RETRIES) {
      // spec §9: the delay starts at 1 s and doubles.
      const delayMs = TOKEN_RETRY_BASE_DELAY_MS * 2 ** attempt;
      yield put(tokenCreationRetried({ attempt: attempt + 1, delayMs, error: lastError }));
      yield delay(delayMs);
    }
  }
  return { error: lastError, blocked: false } as Obtained;
}

/** A token from the provider under the global lock: concurrent callers share one creation (spec §4). */
export function* obtainToken(ctx: PushContext) {
  const obtained: Obtained = yield call(runShared, ctx.creation, createToken, ctx);
  if ('error' in obtained) {
    yield put(
      obtained.blocked
        ? permissionBlocked({ message: obtained.error })
        : tokenCreationFailed({ error: obtained.error }),
    );
  }
  return obtained;
}

/**
 * spec §4: saves the token as this device's active token document (status 'active', deviceId, platform,
 * userAgent; the backend stamps createdAt and lastUsed), keeps the token in fcm_token with the record of the
 * document the backend answered, and waits as spec §9 says after a save. The backend owns "one document per
 * device": the same save deletes the device's replaced document (server/services/users.ts addToken,
 * functions/src/handlers/tokens.ts save_push_token), so the client deletes nothing itself.
 */
export function* saveToken(ctx: PushContext, uid: string, token: string) {
  const { pushTokens } = ctx.backend;
  const deviceId: string = yield select(selectDeviceId);
  const platform: Platform = yield select(selectPlatform);
  const doc: PushTokenDoc = yield call([pushTokens, pushTokens.addToken], uid, {
    token,
    deviceId,
    platform,
    userAgent: ctx.env.userAgent,
  });
  // The answer is checked before it is kept: a document without its id could never be touched or deleted.
  if (parseDocumentId(doc?.id) === null)
    throw new Error('The backend saved the token but sent back no document id');
  const now: number = yield call([ctx.env, ctx.env.now]);
  yield call(storePushTokenWithRecord, ctx.env.storage, token, { uid, docId: doc.id, syncedAt: now });
  yield call(clearRefreshNeededAfterSwUpdate, ctx.env.storage);
  yield put(tokenSaved());
  yield delay(AFTER_SAVE_WAIT_MS);
  return doc;
}

const result = (success: boolean, message: ValidationMessage): ValidationResult => ({
  success,
  message,
  rateLimited: false,
});

/** Creates and saves a token for a device with none stored (or one stored for another account). */
function* generate(ctx: PushContext, uid: string, success: ValidationMessage, failure: ValidationMessage) {
  const obtained: Obtained = yield call(obtainToken, ctx);
  if ('error' in obtained) return result(false, failure);
  try {
    yield call(saveToken, ctx, uid, obtained.token);
    return result(true, success);
  } catch (error) {
    yield put(tokenCreationFailed({ error: messageOf(error) }));
    return result(false, failure);
  }
}

/** The legacy case: a token stored by an older build without its record; its document is looked up once. */
function* adoptStoredToken(ctx: PushContext, uid: string, token: string) {
  const { pushTokens } = ctx.backend;
  try {
    const doc: PushTokenDoc | null = yield call([pushTokens, pushTokens.findActiveToken], uid, token);
    // A document without a usable id is as good as none: the token is saved anew. syncedAt 0: the document's
    // lastUsed is refreshed on this check.
    const docId = parseDocumentId(doc?.id);
    return docId === null ? null : { uid, docId, syncedAt: 0 };
  } catch (error) {
    console.warn('Could not look up the stored push token', error);
    return null;
  }
}

/**
 * The check behind validateAndRefreshToken. Cheap by design (QUALITY.md): the provider's current token is
 * compared with the stored one locally, and the backend is touched only when the token changed, its document
 * is gone, lastUsed is a day old, or a service-worker update asked for a refresh.
 */
export function* checkToken(ctx: PushContext, uid: string) {
  const { storage } = ctx.env;
  const stored: string | null = yield call(readStoredPushToken, storage);
  const storedRecord: PushTokenRecord | null = yield call(readPushTokenRecord, storage);
  if (stored === null || (storedRecord !== null && storedRecord.uid !== uid)) {
    // Nothing stored for this account (a token stored for another account is not this one's to reuse).
    return (yield call(
      generate,
      ctx,
      uid,
      VALIDATION_MESSAGES.generated,
      VALIDATION_MESSAGES.failed,
    )) as ValidationResult;
  }
  const record: PushTokenRecord | null = storedRecord ?? (yield call(adoptStoredToken, ctx, uid, stored));
  const obtained: Obtained = yield call(obtainToken, ctx);
  if ('error' in obtained) return result(false, VALIDATION_MESSAGES.failedAfterValidation);

  if (record !== null && obtained.token === stored) {
    const now: number = yield call([ctx.env, ctx.env.now]);
    const refreshNeeded: boolean = yield call(isRefreshNeededAfterSwUpdate, storage);
    const fresh = now >= record.syncedAt && now - record.syncedAt < TOKEN_TOUCH_INTERVAL_MS;
    if (fresh && !refreshNeeded) return result(true, VALIDATION_MESSAGES.valid);
    try {
      yield call([ctx.backend.pushTokens, ctx.backend.pushTokens.touchToken], uid, record.docId);
      yield call(storePushTokenWithRecord, storage, stored, { ...record, syncedAt: now });
      yield call(clearRefreshNeededAfterSwUpdate, storage);
      yield put(tokenSaved());
      return result(true, VALIDATION_MESSAGES.valid);
    } catch (error) {
      if (!(error instanceof BackendError && error.status === 'NOT_FOUND')) {
        // The token itself is the provider's current one; only the stamp could not be refreshed (offline).
        // It is tried again on the next check.
        console.warn('Could not refresh the push token document', error);
        return result(true, VALIDATION_MESSAGES.valid);
      }
      // The document is gone (removed on another device, or pruned): save the token anew below.
    }
  }
  // The provider's token is not the stored one, or its document is gone: the stored token was invalid.
  try {
    yield call(saveToken, ctx, uid, obtained.token);
    return result(true, VALIDATION_MESSAGES.refreshed);
  } catch (error) {
    yield put(tokenCreationFailed({ error: messageOf(error) }));
    return result(false, VALIDATION_MESSAGES.failedAfterValidation);
  }
}

/**
 * spec §8 validateAndRefreshToken: its results are exactly the spec's messages. Within the 10 s cooldown a call
 * counts as valid without looking (rate-limited); a missing userId aborts with failure; where push is disabled
 * for the environment nothing runs.
 */
export function* validateAndRefreshToken(ctx: PushContext, userId: string | null | undefined) {
  const now: number = yield call([ctx.env, ctx.env.now]);
  const finish = function* (outcome: ValidationResult) {
    yield put(validationFinished({ ...outcome, at: now }));
    return outcome;
  };
  if (!userId) return (yield call(finish, result(false, VALIDATION_MESSAGES.noUserId))) as ValidationResult;
  const enabled: boolean = yield select(selectPushEnvironmentEnabled);
  if (!enabled) return (yield call(finish, result(false, VALIDATION_MESSAGES.disabled))) as ValidationResult;
  const last: number | null = yield select(selectLastValidatedAt);
  if (last !== null && now >= last && now - last < TOKEN_VALIDATION_COOLDOWN_MS) {
    const limited: ValidationResult = {
      success: true,
      message: VALIDATION_MESSAGES.valid,
      rateLimited: true,
    };
    return (yield call(finish, limited)) as ValidationResult;
  }
  yield put(validationStarted({ at: now }));
  const outcome: ValidationResult = yield call(runShared, ctx.validation, checkToken, ctx, userId);
  return (yield call(finish, outcome)) as ValidationResult;
}

/** A backend or provider call at sign-out, bounded so an offline sign-out still ends promptly. */
function* bounded<T>(what: string, effect: ReturnType<typeof call>) {
  try {
    const answer: { done?: T } = yield race({ done: effect, timeout: delay(SIGN_OUT_CLEANUP_TIMEOUT_MS) });
    if (!('done' in answer)) console.warn(`${what}: no answer in time`);
    return answer.done;
  } catch (error) {
    console.warn(`${what} failed`, error);
    return undefined;
  }
}

/**
 * QUALITY.md: sign-out deletes this device's token document and the provider's token before the session ends,
 * so a shared device never receives the last person's pushes. Any creation or validation in flight is cancelled
 * first, so nothing saves a token behind the delete. Failures are logged; the session still ends.
 */
export function* releaseDeviceToken(ctx: PushContext, uid: string | null) {
  yield call(cancelShared, ctx.creation);
  yield call(cancelShared, ctx.validation);
  const { storage } = ctx.env;
  const stored: string | null = yield call(readStoredPushToken, storage);
  const record: PushTokenRecord | null = yield call(readPushTokenRecord, storage);
  if (uid !== null && stored !== null) {
    const { pushTokens } = ctx.backend;
    let docId = record !== null && record.uid === uid ? record.docId : null;
    if (docId === null) {
      const found: PushTokenDoc | null | undefined = yield call(
        bounded,
        'Looking up the push token document',
        call([pushTokens, pushTokens.findActiveToken], uid, stored),
      );
      docId = found?.id ?? null;
    }
    if (docId !== null) {
      yield call(
        bounded,
        'Deleting the push token document',
        call([pushTokens, pushTokens.deleteToken], uid, docId),
      );
    }
  }
  if (stored !== null) {
    const { pushProvider } = ctx.backend;
    yield call(bounded, 'Deleting the push token', call([pushProvider, pushProvider.deleteToken]));
  }
  yield call(clearStoredPushToken, storage);
  yield put(deviceReleased());
}
