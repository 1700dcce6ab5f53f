// Token monitoring for one signed-in person (spec §4, §9): service-worker messaging is enabled in every
// permission state; with permission granted, a startup validation after 3 s (2 s on iOS), a check every 30
// minutes, and a check when the app becomes visible again (at most one per 5 s; after 1 s on iOS). The
// supervisor (pushSaga) cancels this task on sign-out, unmount or a closed gate; every channel closes then.
import { call, delay, fork, put, race, select, take } from 'redux-saga/effects';
import type { EventChannel } from 'redux-saga';
import type { Platform } from '@/platform';
import { selectPlatform } from '@/store/appSlice';
import {
  permissionWaitStarted,
  messagingEnableAnswered,
  messagingEnableFailed,
  permissionBlocked,
  permissionChanged,
  selectPermission,
} from '@/store/pushSlice';
import type { PermissionState } from '@/store/pushSlice';
import { enableServiceWorkerMessaging } from '../serviceWorkerProtocol';
import {
  AFTER_PERMISSION_WAIT_MS,
  IOS_MONITORING_VALIDATION_DELAY_MS,
  IOS_VISIBILITY_CHECK_DELAY_MS,
  STARTUP_VALIDATION_DELAY_MS,
  TOKEN_CHECK_INTERVAL_MS,
  VISIBILITY_THROTTLE_MS,
} from '@/timings';
import type { VisibilityEvent } from '@/platform/pushEnv';
import { cancelShared } from './sharedTask';
import { validateAndRefreshToken } from './tokenLifecycle';
import type { PushContext } from './tokenLifecycle';

type PermissionAction = ReturnType<typeof permissionChanged>;
const isPermissionChange = (action: { type: string }): action is PermissionAction =>
  action.type === permissionChanged.type;
const leftGranted = (action: { type: string }): boolean =>
  isPermissionChange(action) && action.payload.permission !== 'granted';

/** spec §4: ENABLE_MESSAGING → MESSAGING_ENABLED within 5 s; a failure ('SW communication timeout') is logged. */
export function* enableMessaging() {
  try {
    const success: boolean = yield call(enableServiceWorkerMessaging);
    yield put(messagingEnableAnswered({ success }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.warn('Enabling service-worker messaging failed:', message);
    yield put(messagingEnableFailed({ error: message }));
  }
}

/** Every 30 minutes (spec §9). */
export function* checkPeriodically(ctx: PushContext, uid: string) {
  while (true) {
    yield delay(TOKEN_CHECK_INTERVAL_MS);
    yield call(validateAndRefreshToken, ctx, uid);
  }
}

/**
 * When the app becomes visible: at most one check per 5 s (spec §9; changes in between are dropped, the channel
 * has no buffer), after 1 s on iOS. The permission is read again first, since Safari reports no permission
 * changes, and the check runs only with it granted. Each check is forked, so a check cancelled with the lock
 * (permission revoked, sign-out) never ends this watcher.
 */
export function* checkOnVisibility(ctx: PushContext, uid: string, platform: Platform) {
  const channel: EventChannel<VisibilityEvent> = yield call([ctx.env, ctx.env.createVisibilityChannel]);
  try {
    while (true) {
      const { visible }: VisibilityEvent = yield take(channel);
      if (!visible) continue;
      const known: PermissionState = yield select(selectPermission);
      const current: PermissionState = yield call([ctx.env, ctx.env.readPermission]);
      if (current !== known) yield put(permissionChanged({ permission: current }));
      if (current === 'granted') {
        if (platform === 'ios') yield delay(IOS_VISIBILITY_CHECK_DELAY_MS);
        yield fork(validateAndRefreshToken, ctx, uid);
      }
      yield delay(VISIBILITY_THROTTLE_MS);
    }
  } finally {
    channel.close();
  }
}

/** Token work while the permission is granted: a first validation after `firstDelayMs`, then every 30 min. */
export function* runTokenChecks(ctx: PushContext, uid: string, firstDelayMs: number) {
  if (firstDelayMs > 0) yield delay(firstDelayMs);
  yield call(validateAndRefreshToken, ctx, uid);
  yield call(checkPeriodically, ctx, uid);
}

/**
 * Monitoring of one person's token. spec §4: 'default' skips the token check and only enables service-worker
 * messaging (the person is asked from a user gesture); 'denied' stops token creation and shows the provider's
 * message; 'granted' proceeds. A permission change moves between these at any time; a creation in flight when
 * the permission is revoked is cancelled.
 */
export function* monitorPush(ctx: PushContext, uid: string) {
  yield fork(enableMessaging);
  const platform: Platform = yield select(selectPlatform);
  yield fork(checkOnVisibility, ctx, uid, platform);
  // spec §9: startup validation delayed 3 s; on iOS, monitoring validation after 2 s.
  let firstDelayMs = platform === 'ios' ? IOS_MONITORING_VALIDATION_DELAY_MS : STARTUP_VALIDATION_DELAY_MS;
  while (true) {
    const permission: PermissionState = yield select(selectPermission);
    if (permission === 'granted') {
      yield race({ checks: call(runTokenChecks, ctx, uid, firstDelayMs), revoked: take(leftGranted) });
      yield call(cancelShared, ctx.creation);
      yield call(cancelShared, ctx.validation);
      continue;
    }
    if (permission === 'denied') {
      yield put(permissionBlocked({ message: ctx.backend.pushProvider.permissionBlockedMessage }));
    } else {
      yield put(permissionWaitStarted());
    }
    const change: PermissionAction = yield take(isPermissionChange);
    if (change.payload.permission === 'granted') {
      // spec §9: a wait after a permission grant, then the token is created at once.
      yield delay(AFTER_PERMISSION_WAIT_MS);
      firstDelayMs = 0;
    }
  }
}
