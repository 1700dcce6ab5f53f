// Push on this device (spec §4, §5), in two sagas. pushDeviceSaga needs no backend and starts with the app: it
// detects support and follows the notification permission. pushSaga starts with the backend and supervises token
// monitoring: it runs while the gate is open (signed in, user document allowing push, supported, environment
// enabled, app mounted) and stops, with every timer, channel and listener, when the gate closes, at sign-out or
// when the app's root unmounts. Sign-out asks it to release this device's token before the session ends.
import { call, cancel, fork, put, select, take, takeLeading } from 'redux-saga/effects';
import { superviseQuietly } from '../supervise';
import type { EventChannel, Task } from 'redux-saga';
import type { Backend } from '@/backend/ports';
import { markRefreshNeededAfterSwUpdate } from '@/platform';
import { rootMounted, rootUnmounted, serviceWorkerTookControl } from '@/store/appSlice';
import {
  CLOSED_GATE_MESSAGES,
  deviceReleaseRequested,
  failureRecorded,
  monitoringStarted,
  monitoringStopped,
  permissionChanged,
  permissionRequested,
  pushProviderRefused,
  selectPermission,
  selectPushGate,
  supportDetected,
  validationFinished,
  validationRequested,
  validationSkipped,
  PERMISSION_SKIP_MESSAGES,
  PUSH_FAILURES,
} from '@/store/pushSlice';
import type { PermissionState, PushGate, PushGateReason } from '@/store/pushSlice';
import { accountLoaded, docChanged, selectUid, signedIn, signedOut } from '@/store/userSlice';
import { browserPushEnv } from '@/platform/pushEnv';
import type { PushEnv } from '@/platform/pushEnv';
import { monitorPush } from './monitor';
import { cancelShared, createSharedTask } from './sharedTask';
import { releaseDeviceToken, validateAndRefreshToken } from './tokenLifecycle';
import type { PushContext } from './tokenLifecycle';

/** Actions after which the gate may have opened or closed. */
const GATE_INPUTS = new Set<string>([
  signedIn.type,
  accountLoaded.type,
  docChanged.type,
  signedOut.type,
  rootMounted.type,
  rootUnmounted.type,
  supportDetected.type,
  pushProviderRefused.type,
]);
const isGateInput = (action: { type: string }): boolean => GATE_INPUTS.has(action.type);

/** Gate reasons that mean the person turned push off for their account: this device's token is released. */
const SETTINGS_REASONS: ReadonlySet<PushGateReason> = new Set(['notificationsOff', 'pushNotChosen']);

type StopCause = { kind: 'signOut' } | { kind: 'gate'; gate: PushGate };

/** Follows permission changes made outside the app (site settings) into the store. */
export function* followPermission(env: PushEnv) {
  const channel: EventChannel<{ permission: PermissionState }> = yield call([
    env,
    env.createPermissionChannel,
  ]);
  try {
    while (true) {
      const { permission }: { permission: PermissionState } = yield take(channel);
      const known: PermissionState = yield select(selectPermission);
      if (permission !== known) yield put(permissionChanged({ permission }));
    }
  } finally {
    channel.close();
  }
}

/**
 * spec §4: asking happens only from a user gesture. The saga runs synchronously inside the click's dispatch, so
 * Notification.requestPermission is called while the gesture is still active (iOS requires it).
 */
export function* handlePermissionRequested(env: PushEnv) {
  try {
    const permission: PermissionState = yield call([env, env.requestPermission]);
    yield put(permissionChanged({ permission }));
  } catch (error) {
    console.warn('Asking for notification permission failed', error);
    yield put(failureRecorded({ error: PUSH_FAILURES.permissionPromptSkipped }));
  }
}

/**
 * A validation asked for by hand (Settings' "Check again", the iOS debug menu): through the same gate as every
 * other path to token work (spec §5), and the same permission rule as monitoring (spec §4: 'default' skips the
 * token check, 'denied' stops token creation). With the gate closed, or the permission not granted, it answers
 * what that means and touches neither the provider nor the backend; the cooldown applies otherwise.
 */
export function* handleValidationRequested(ctx: PushContext) {
  const gate: PushGate = yield select(selectPushGate);
  if (gate.open) {
    const permission: PermissionState = yield select(selectPermission);
    if (permission !== 'granted') {
      const at: number = yield call([ctx.env, ctx.env.now]);
      const message = PERMISSION_SKIP_MESSAGES[permission === 'denied' ? 'denied' : 'default'];
      yield put(validationSkipped({ message, at }));
      return;
    }
    yield call(validateAndRefreshToken, ctx, gate.uid);
    return;
  }
  const at: number = yield call([ctx.env, ctx.env.now]);
  const reason = gate.reason ?? 'signedOut';
  yield put(
    validationFinished({ success: false, message: CLOSED_GATE_MESSAGES[reason], rateLimited: false, at }),
  );
}

/** spec §3 fcm_refresh_needed_after_sw_update: a new worker took over, so the next check syncs the token. */
export function* handleServiceWorkerUpdated(
  ctx: PushContext,
  action: ReturnType<typeof serviceWorkerTookControl>,
) {
  if (!action.payload.isUpdate) return;
  yield call(markRefreshNeededAfterSwUpdate, ctx.env.storage);
  const gate: PushGate = yield select(selectPushGate);
  const permission: PermissionState = yield select(selectPermission);
  if (gate.open && permission === 'granted') yield call(validateAndRefreshToken, ctx, gate.uid);
}

/** Waits until monitoring must stop for `uid`, and says why. */
function* untilStopped(uid: string) {
  while (true) {
    const action: { type: string } = yield take(
      (a: { type: string }) => isGateInput(a) || a.type === deviceReleaseRequested.type,
    );
    if (action.type === deviceReleaseRequested.type) return { kind: 'signOut' } as StopCause;
    const gate: PushGate = yield select(selectPushGate);
    if (!gate.open || gate.uid !== uid) return { kind: 'gate', gate } as StopCause;
  }
}

/** Runs monitoring while the gate is open; a closed gate or sign-out cancels it and takes its locks back. */
export function* superviseMonitoring(ctx: PushContext) {
  while (true) {
    let gate: PushGate = yield select(selectPushGate);
    while (!gate.open) {
      yield take(isGateInput);
      gate = yield select(selectPushGate);
    }
    const uid = gate.uid as string;
    const task: Task = yield fork(superviseQuietly, 'push monitoring', monitorPush, ctx, uid);
    yield put(monitoringStarted());
    const cause: StopCause = yield call(untilStopped, uid);
    yield cancel(task);
    yield call(cancelShared, ctx.creation);
    yield call(cancelShared, ctx.validation);
    yield put(monitoringStopped());
    // The person turned push off for their account: this device stops receiving (no token left behind).
    if (cause.kind === 'gate' && cause.gate.reason !== null && SETTINGS_REASONS.has(cause.gate.reason)) {
      yield call(releaseDeviceToken, ctx, uid);
    }
  }
}

/** Sign-out's request: monitoring has stopped (superviseMonitoring takes the same action); release the token. */
export function* handleDeviceRelease(ctx: PushContext) {
  const uid: string | null = yield select(selectUid);
  yield call(releaseDeviceToken, ctx, uid);
}

/**
 * The browser's side of push, known without a backend (settings' about section shows it to anyone): support,
 * and the notification permission, followed when site settings change it and asked for on a click. `createEnv`
 * is the browser edge; tests and the token benchmark pass their own.
 */
export function* pushDeviceSaga(createEnv: () => PushEnv = browserPushEnv) {
  const env: PushEnv = yield call(createEnv);
  const permission: PermissionState = yield call([env, env.readPermission]);
  yield put(
    supportDetected({ support: env.support, environmentEnabled: env.environmentEnabled, permission }),
  );
  yield fork(superviseQuietly, 'push permission', followPermission, env);
  yield takeLeading(permissionRequested.type, handlePermissionRequested, env);
}

/** Token work against `backend`, on the browser edge `createEnv` gives; the token benchmark passes its own. */
export function* pushSaga(backend: Backend, createEnv: () => PushEnv = browserPushEnv) {
  const env: PushEnv = yield call(createEnv);
  const ctx: PushContext = { backend, env, creation: createSharedTask(), validation: createSharedTask() };
  yield takeLeading(validationRequested.type, handleValidationRequested, ctx);
  yield takeLeading(deviceReleaseRequested.type, handleDeviceRelease, ctx);
  yield takeLeading(serviceWorkerTookControl.type, handleServiceWorkerUpdated, ctx);
  try {
    yield call(superviseMonitoring, ctx);
  } finally {
    // The locked runs are detached (spawned): they end with the saga, not after it.
    yield call(cancelShared, ctx.creation);
    yield call(cancelShared, ctx.validation);
  }
}
