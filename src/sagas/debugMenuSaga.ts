// The iOS debug menu (spec §2, issue #5 part 8): Safari on iOS has no developer tools on the device, so a fixed
// button (iOS only, signed in) opens a prompt with spec §2's 8 numbered options. Each option works through the same
// sagas the app runs (a health check, a token validation, the cooldown resets) and answers in an alert. The button
// dims after 10 s. The separate debug popup — the menu opening by itself on iOS — stays off (spec §9).
import { call, delay, put, race, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import { browserLocalStorage, readPushTokenRecord, readStoredPushToken } from '@/platform';
import type { KeyValueStore, PushTokenRecord } from '@/platform';
import { selectApp } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import { debugButtonDimmed, debugButtonShown, debugMenuOpened } from '@/store/debugSlice';
import {
  selectPush,
  validationCooldownReset,
  validationFinished,
  validationRequested,
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
import { accountLoaded, selectUid } from '@/store/userSlice';
import { browserDialogs, now } from '@/platform/browser';
import type { Dialogs } from '@/platform/browser';
import { DEBUG_BUTTON_DIM_MS, DEBUG_RESULT_TIMEOUT_MS, SW_RESTART_COOLDOWN_MS } from '@/timings';

/** spec §9: the iOS debug popup flag is off; the menu opens only from its button. */
export const IOS_DEBUG_POPUP_ENABLED = false;

/** spec §2: the options, in order, numbered from 1. */
export const DEBUG_OPTIONS = [
  'Environment diagnostics',
  'Service-worker health report',
  'Test SW communication',
  'FCM token diagnostic',
  'Token validation',
  'Reset SW cooldown',
  'Reset token validation',
  'Cancel',
] as const;

export const DEBUG_MENU_TEXT = [
  'QuPM debug menu. Type a number:',
  ...DEBUG_OPTIONS.map((option, i) => `${i + 1}. ${option}`),
].join('\n');

/** spec §8: the alerts when nobody is signed in. */
export const NO_USER_FOR_DIAGNOSTIC = 'No authenticated user found for FCM diagnostic';
export const NO_USER_FOR_VALIDATION = 'No authenticated user found for FCM validation';

/** Characters of a token a diagnostic shows: enough to tell two apart, never enough to use one. */
export const TOKEN_PREFIX_LENGTH = 12;

/** The option number typed (1-8), or null for anything else; an empty answer or Escape is Cancel. */
export function parseChoice(answer: string | null): number | null {
  if (answer === null || answer.trim() === '') return 8;
  const n = Number(answer.trim().replace(/\.$/, ''));
  return Number.isInteger(n) && n >= 1 && n <= DEBUG_OPTIONS.length ? n : null;
}

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
  const { finished }: { finished?: ReturnType<typeof validationFinished> } = yield race({
    finished: take(validationFinished.type),
    timeout: delay(DEBUG_RESULT_TIMEOUT_MS),
  });
  const text = finished
    ? `Token validation: ${finished.payload.message}${finished.payload.rateLimited ? ' (within the 10 s cooldown)' : ''}`
    : 'Token validation: no result';
  yield call([dialogs, dialogs.alert], text);
}

export function* handleMenuOpened(dialogs: Dialogs) {
  const answer: string | null = yield call([dialogs, dialogs.prompt], DEBUG_MENU_TEXT);
  const choice = parseChoice(answer);
  if (choice === 1) yield call(showEnvironment, dialogs);
  else if (choice === 2) yield call(showHealth, dialogs);
  else if (choice === 3) yield call(testCommunication, dialogs);
  else if (choice === 4) yield call(showToken, dialogs);
  else if (choice === 5) yield call(validateToken, dialogs);
  else if (choice === 6) {
    yield put(restartCooldownReset());
    yield call([dialogs, dialogs.alert], 'The service-worker restart cooldown is reset.');
  } else if (choice === 7) {
    yield put(validationCooldownReset());
    yield call([dialogs, dialogs.alert], 'Token validation is reset: the next check runs at once.');
  } else if (choice === null) {
    yield call([dialogs, dialogs.alert], `Type a number from 1 to ${DEBUG_OPTIONS.length}.`);
  }
  // 8: Cancel.
}

export function* dimButton() {
  yield delay(DEBUG_BUTTON_DIM_MS);
  yield put(debugButtonDimmed());
}

/** The debug popup (off): the menu would open by itself when someone signs in on iOS. */
export function* popUpOnSignIn(dialogs: Dialogs) {
  while (true) {
    yield take(accountLoaded.type);
    const app: AppState = yield select(selectApp);
    if (app.platform === 'ios') yield call(handleMenuOpened, dialogs);
  }
}

export function* debugMenuSaga(dialogs: Dialogs = browserDialogs, popup: boolean = IOS_DEBUG_POPUP_ENABLED) {
  yield takeLatest(debugButtonShown.type, dimButton);
  yield takeLeading(debugMenuOpened.type, handleMenuOpened, dialogs);
  if (popup) yield call(popUpOnSignIn, dialogs);
}
