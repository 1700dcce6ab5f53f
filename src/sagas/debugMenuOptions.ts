// The iOS debug menu's options (spec §2): one table of label and handler, in the spec's order, so the menu's text,
// the numbers it accepts and what each number does cannot drift apart. The reports are plain text functions of the
// store's state; the handlers answer through the same sagas the app runs (a health check, a token validation, the
// cooldown resets). debugMenuSaga.ts keeps the dialog itself: the button, the prompt and the choice.
import { call, delay, put, race, select, take } from 'redux-saga/effects';
import { browserLocalStorage, readPushTokenRecord, readStoredPushToken } from '@/platform';
import type { KeyValueStore, PushTokenRecord } from '@/platform';
import { selectApp } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import {
  selectPush,
  validationCooldownReset,
  validationFinished,
  validationRequested,
  validationSkipped,
} from '@/store/pushSlice';
import type { PushState } from '@/store/pushSlice';
import {
  assessHealth,
  healthCheckAnswered,
  healthCheckFailed,
  healthCheckRequested,
  restartCooldownRemaining,
  restartCooldownReset,
  selectSwHealth,
} from '@/store/swHealthSlice';
import type { SwHealthState } from '@/store/swHealthSlice';
import { selectUid } from '@/store/userSlice';
import { now } from '@/platform/browser';
import type { Dialogs } from '@/platform/browser';
import { DEBUG_RESULT_TIMEOUT_MS, SW_RESTART_COOLDOWN_MS } from '@/timings';

/** spec §8: the alerts when nobody is signed in. */
export const NO_USER_FOR_DIAGNOSTIC = 'No authenticated user found for FCM diagnostic';
export const NO_USER_FOR_VALIDATION = 'No authenticated user found for FCM validation';

/** Characters of a token a diagnostic shows: enough to tell two apart, never enough to use one. */
export const TOKEN_PREFIX_LENGTH = 12;

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;
const minutes = (ms: number): string => `${(ms / 60_000).toFixed(1)} min`;
const time = (at: number | null): string => (at === null ? 'never' : new Date(at).toISOString());

export function tokenPrefix(token: string | null): string {
  if (token === null) return 'none stored';
  return `${token.slice(0, TOKEN_PREFIX_LENGTH)}… (${token.length} characters)`;
}

export function environmentReport(app: AppState, push: PushState, health: SwHealthState, userAgent: string) {
  const sw = app.serviceWorker;
  return [
    'Environment diagnostics',
    `Version: ${__APP_VERSION__} (built ${__BUILD_TIME__})`,
    `Backend: ${__BACKEND__}`,
    `Platform: ${app.platform}`,
    `User agent: ${userAgent}`,
    `Installed as an app: ${yesNo(app.installed)}`,
    `Online: ${yesNo(app.online)}`,
    `Service worker: ${sw.status}${sw.controlling ? ', controls this page' : ''}${sw.error ? ` (${sw.error})` : ''}`,
    `Push support: ${push.support.supported ? 'yes' : `missing ${push.support.missing.join(', ')}`}`,
    `Push for this host: ${push.environmentEnabled ? 'enabled' : 'disabled'}`,
    `Notification permission: ${push.permission}`,
    `Device id: ${app.deviceId || 'unknown'}`,
    `This start: ${health.startup ? health.startup.kind : 'unknown'}`,
  ].join('\n');
}

export function healthReportText(health: SwHealthState, at: number) {
  const report = assessHealth(health, at);
  const cooldown = restartCooldownRemaining(health, at, SW_RESTART_COOLDOWN_MS);
  const check = health.check;
  const lastCheck =
    check.status === 'answered'
      ? `answered in ${check.roundTripMs ?? 0} ms at ${time(check.lastAnsweredAt)}`
      : check.status === 'failed'
        ? `failed at ${time(check.lastFailedAt)}`
        : check.status;
  return [
    'Service-worker health',
    `Healthy: ${yesNo(report.isHealthy)} (${report.restartsInWindow} restarts in the last 5 minutes)`,
    `Assessment: ${report.assessment}`,
    `Uptime: ${minutes(report.uptimeMs)}`,
    `Restarts: ${report.restartCount} (${report.restartsPerMinute.toFixed(2)} a minute)`,
    `Errors: ${report.errors}${health.lastError ? ` (last: ${health.lastError})` : ''}`,
    `Controller changes: ${report.controllerChanges}`,
    `Ignored messages: ${health.ignoredMessages}`,
    `Last check: ${lastCheck}`,
    `Restart cooldown: ${cooldown > 0 ? `${seconds(cooldown)} left` : 'none'}`,
  ].join('\n');
}

export function tokenReport(
  uid: string,
  push: PushState,
  token: string | null,
  record: PushTokenRecord | null,
) {
  const validation = push.lastValidation;
  return [
    'FCM token diagnostic',
    `User: ${uid}`,
    `Token status: ${push.tokenStatus}`,
    `Notification permission: ${push.permission}`,
    `Worker messaging: ${push.messagingEnabled === null ? 'not asked' : push.messagingEnabled ? 'enabled' : 'failed'}`,
    `Stored token: ${tokenPrefix(token)}`,
    `Saved as: ${record ? `${record.docId} for ${record.uid === uid ? 'this user' : 'another user'}, synced ${time(record.syncedAt)}` : 'no record'}`,
    `Last validation: ${validation ? `${validation.message}${validation.rateLimited ? ' (cooldown)' : ''} at ${time(validation.at)}` : 'none'}`,
    `Last error: ${push.lastError ?? 'none'}`,
  ].join('\n');
}

function* showEnvironment(dialogs: Dialogs) {
  const app: AppState = yield select(selectApp);
  const push: PushState = yield select(selectPush);
  const health: SwHealthState = yield select(selectSwHealth);
  const userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  yield call([dialogs, dialogs.alert], environmentReport(app, push, health, userAgent));
}

function* showHealth(dialogs: Dialogs) {
  const health: SwHealthState = yield select(selectSwHealth);
  const at: number = yield call(now);
  yield call([dialogs, dialogs.alert], healthReportText(health, at));
}

function* testCommunication(dialogs: Dialogs) {
  yield put(healthCheckRequested());
  const result: {
    answered?: ReturnType<typeof healthCheckAnswered>;
    failed?: ReturnType<typeof healthCheckFailed>;
  } = yield race({
    answered: take(healthCheckAnswered.type),
    failed: take(healthCheckFailed.type),
    timeout: delay(DEBUG_RESULT_TIMEOUT_MS),
  });
  const text = result.answered
    ? `The service worker answered in ${result.answered.payload.roundTripMs} ms.`
    : `SW communication failed: ${result.failed?.payload.error ?? 'no result'}`;
  yield call([dialogs, dialogs.alert], text);
}

function* showToken(dialogs: Dialogs) {
  const uid: string | null = yield select(selectUid);
  if (uid === null) {
    yield call([dialogs, dialogs.alert], NO_USER_FOR_DIAGNOSTIC);
    return;
  }
  const push: PushState = yield select(selectPush);
  const store: KeyValueStore | null = yield call(browserLocalStorage);
  const token: string | null = yield call(readStoredPushToken, store);
  const record: PushTokenRecord | null = yield call(readPushTokenRecord, store);
  yield call([dialogs, dialogs.alert], tokenReport(uid, push, token, record));
}

function* validateToken(dialogs: Dialogs) {
  const uid: string | null = yield select(selectUid);
  if (uid === null) {
    yield call([dialogs, dialogs.alert], NO_USER_FOR_VALIDATION);
    return;
  }
  yield put(validationRequested());
  const {
    finished,
    skipped,
  }: {
    finished?: ReturnType<typeof validationFinished>;
    skipped?: ReturnType<typeof validationSkipped>;
  } = yield race({
    finished: take(validationFinished.type),
    // spec §4: with the permission not granted, no token work is done; the menu says why.
    skipped: take(validationSkipped.type),
    timeout: delay(DEBUG_RESULT_TIMEOUT_MS),
  });
  const text = finished
    ? `Token validation: ${finished.payload.message}${finished.payload.rateLimited ? ' (within the 10 s cooldown)' : ''}`
    : skipped
      ? `Token validation: ${skipped.payload.message}`
      : 'Token validation: no result';
  yield call([dialogs, dialogs.alert], text);
}

function* resetRestartCooldown(dialogs: Dialogs) {
  yield put(restartCooldownReset());
  yield call([dialogs, dialogs.alert], 'The service-worker restart cooldown is reset.');
}

function* resetValidation(dialogs: Dialogs) {
  yield put(validationCooldownReset());
  yield call([dialogs, dialogs.alert], 'Token validation is reset: the next check runs at once.');
}

/** What an option does; null for Cancel, which does nothing. */
export type DebugOptionHandler = ((dialogs: Dialogs) => Generator) | null;

/** spec §2: the options, in order, numbered from 1; each with what it does. */
export const DEBUG_MENU: readonly { readonly label: string; readonly run: DebugOptionHandler }[] = [
  { label: 'Environment diagnostics', run: showEnvironment },
  { label: 'Service-worker health report', run: showHealth },
  { label: 'Test SW communication', run: testCommunication },
  { label: 'FCM token diagnostic', run: showToken },
  { label: 'Token validation', run: validateToken },
  { label: 'Reset SW cooldown', run: resetRestartCooldown },
  { label: 'Reset token validation', run: resetValidation },
  { label: 'Cancel', run: null },
];

/** spec §2: the options' labels, in order. */
export const DEBUG_OPTIONS: readonly string[] = DEBUG_MENU.map((option) => option.label);
