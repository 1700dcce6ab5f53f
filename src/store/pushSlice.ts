// Push on this device (spec §4, §5, §8): whether the browser and the environment allow it, the notification
// permission, where this device's token stands, and the last validation. Plain data only: the token itself
// stays in local storage (spec §3 fcm_token), never in the store.
import { createAction, createSelector, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { wantsPush } from '@core/delivery';
import type { PermissionState, PushSupport } from '@/platform';
import { signedOut } from './userSlice';
import type { UserState } from './userSlice';

export type { PermissionState } from '@/platform';

/** Where this device's push token stands, as one finite union. */
export type TokenStatus =
  /** Token work does not run: signed out, or the gate is closed (see selectPushGate). */
  | 'off'
  /** The gate is open but the person has not answered the permission prompt yet (spec §4 default). */
  | 'awaitingPermission'
  /** Notification permission is denied: no token is created (spec §4 denied). */
  | 'blocked'
  /** Asking the push provider for a token, with retries (spec §9). */
  | 'creating'
  /** validateAndRefreshToken is running. */
  | 'validating'
  /** This device holds one active token document. */
  | 'active'
  /** The last creation or validation failed; the next check tries again. */
  | 'failed';

/** spec §8: the results of validateAndRefreshToken, word for word. */
export const VALIDATION_MESSAGES = {
  noUserId: 'No user ID provided',
  disabled: 'FCM disabled for current environment',
  valid: 'Current token is valid',
  refreshed: 'Token was invalid and has been refreshed',
  generated: 'No stored token found, generated new token',
  failedAfterValidation: 'Failed to generate new token after validation failure',
  failed: 'Failed to generate new token',
} as const;
/**
 * What a validation asked for while the gate is closed answers (spec §5: every path to token work goes through
 * the gate). spec §8's own words where it has them; the app's words for the rest.
 */
export const CLOSED_GATE_MESSAGES = {
  notMounted: 'The app is still starting: try again in a moment',
  signedOut: VALIDATION_MESSAGES.noUserId,
  unsupported: 'This browser cannot receive push notifications',
  noIndexedDb: 'This browser cannot receive push notifications (no IndexedDB)',
  refusedByBrowser: 'The push service does not support this browser',
  environment: VALIDATION_MESSAGES.disabled,
  noUserDoc: 'This account has no notification settings yet: nothing to validate',
  notificationsOff: 'Notifications are off for this account: nothing to validate',
  pushNotChosen: 'Push is not among this account’s notification channels: nothing to validate',
} as const;
/**
 * What a validation asked for by hand answers when the notification permission is not granted (spec §4: with
 * 'default' the token check is skipped, with 'denied' token creation stops): no token work, and the device's token
 * status stays as it was.
 */
export const PERMISSION_SKIP_MESSAGES = {
  default: 'Notifications are not allowed on this device yet: the token check is skipped',
  denied: 'Notifications are blocked on this device: no token work',
} as const;

/**
 * The failures token work records in `lastError` (besides the provider's own message for a blocked permission and
 * the backend's words): kept here, beside the state that holds them, so that the sagas that record them and the
 * screens that put them in words (src/ui/pushWords.ts) name the same strings. spec §8's where it has them.
 */
export const PUSH_FAILURES = {
  /** spec §8: failing to get a token yields this, and is retried. */
  noToken: 'No registration token available',
  providerTimeout: "The push service didn't answer in time",
  workerNotReady: "QuPM's background worker isn't ready yet",
  notAllowed: 'Notifications are not allowed on this device',
  /** Chromium refuses push in private windows, saying "permission denied" although the permission is granted. */
  refusedInWindow:
    "This browser window can't receive push notifications (private windows can't). Open QuPM in a normal window, or install it.",
  /** spec §8: the worker did not answer ENABLE_MESSAGING within 5 s. */
  swTimeout: 'SW communication timeout',
  permissionPromptSkipped: 'The browser did not ask for notification permission. Try again.',
} as const;
export type ValidationMessage =
  | (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES]
  | (typeof CLOSED_GATE_MESSAGES)[keyof typeof CLOSED_GATE_MESSAGES]
  | (typeof PERMISSION_SKIP_MESSAGES)[keyof typeof PERMISSION_SKIP_MESSAGES];

export interface ValidationResult {
  success: boolean;
  message: ValidationMessage;
  /** Answered from the 10 s cooldown without looking (spec §9: rate-limited calls count as valid). */
  rateLimited: boolean;
}

export interface PushState {
  support: PushSupport;
  /** spec §5: push runs only off localhost/IP hosts, unless the build's override flag is on. */
  environmentEnabled: boolean;
  permission: PermissionState;
  tokenStatus: TokenStatus;
  /** Attempt number (0 = first try) while creating; spec §9 allows 3 retries. */
  creationAttempt: number;
  monitoring: boolean;
  /** Start of the last validation that really ran: the 10 s cooldown counts from here (epoch ms). */
  lastValidatedAt: number | null;
  lastValidation: (ValidationResult & { at: number }) | null;
  /** The last failure, in words fit for the settings screen (a blocked permission: the provider's message). */
  lastError: string | null;
  /** The worker's answer to ENABLE_MESSAGING: null until asked, then whether it said success. */
  messagingEnabled: boolean | null;
  /** The person closed the main screen's prompt to allow notifications (for this session). */
  promptDismissed: boolean;
  /**
   * spec §8: the push provider itself refused this browser (unsupported-browser, indexed-db-unsupported), which
   * the app's own capability check could not see. Messaging setup stops for the page's life: the gate stays
   * closed, so nothing retries, and no 30-minute or visibility check runs.
   */
  providerRefusal: ProviderRefusal | null;
}

export type ProviderRefusal = 'unsupportedBrowser' | 'noIndexedDb';

export const initialState: PushState = {
  support: { supported: false, missing: [] },
  environmentEnabled: false,
  permission: 'default',
  tokenStatus: 'off',
  creationAttempt: 0,
  monitoring: false,
  lastValidatedAt: null,
  lastValidation: null,
  lastError: null,
  messagingEnabled: null,
  promptDismissed: false,
  providerRefusal: null,
};

const pushSlice = createSlice({
  name: 'push',
  initialState,
  reducers: {
    supportDetected(
      state,
      action: PayloadAction<{
        support: PushSupport;
        environmentEnabled: boolean;
        permission: PermissionState;
      }>,
    ) {
      state.support = action.payload.support;
      state.environmentEnabled = action.payload.environmentEnabled;
      state.permission = action.payload.permission;
    },
    permissionChanged(state, action: PayloadAction<{ permission: PermissionState }>) {
      state.permission = action.payload.permission;
    },
    /** The person pressed "Allow notifications" (a user gesture: spec §4, iOS requires one). */
    permissionRequested() {},
    promptDismissed(state) {
      state.promptDismissed = true;
    },
    monitoringStarted(state) {
      state.monitoring = true;
    },
    monitoringStopped(state) {
      state.monitoring = false;
      state.tokenStatus = 'off';
      state.creationAttempt = 0;
    },
    /** The gate opened while the permission is undecided: token work waits for the person to answer. */
    permissionWaitStarted(state) {
      state.tokenStatus = 'awaitingPermission';
    },
    permissionBlocked(state, action: PayloadAction<{ message: string }>) {
      state.tokenStatus = 'blocked';
      state.lastError = action.payload.message;
    },
    tokenCreationStarted(state, action: PayloadAction<{ attempt: number }>) {
      state.tokenStatus = 'creating';
      state.creationAttempt = action.payload.attempt;
    },
    tokenCreationRetried(state, action: PayloadAction<{ attempt: number; delayMs: number; error: string }>) {
      state.creationAttempt = action.payload.attempt;
      state.lastError = action.payload.error;
    },
    tokenCreationFailed(state, action: PayloadAction<{ error: string }>) {
      state.tokenStatus = 'failed';
      state.lastError = action.payload.error;
    },
    tokenSaved(state) {
      state.tokenStatus = 'active';
      state.lastError = null;
    },
    validationStarted(state, action: PayloadAction<{ at: number }>) {
      state.tokenStatus = 'validating';
      state.lastValidatedAt = action.payload.at;
    },
    validationFinished(state, action: PayloadAction<ValidationResult & { at: number }>) {
      state.lastValidation = action.payload;
      if (action.payload.rateLimited) return;
      state.tokenStatus = action.payload.success ? 'active' : 'failed';
      if (action.payload.success) state.lastError = null;
    },
    /** Settings → notifications "Check again", or the iOS debug menu's token validation. */
    validationRequested() {},
    /**
     * A validation asked for by hand was not run, the permission not being granted (spec §4): remembered as the
     * last validation, with the token's status left as it was.
     */
    validationSkipped(
      state,
      action: PayloadAction<{
        message: (typeof PERMISSION_SKIP_MESSAGES)[keyof typeof PERMISSION_SKIP_MESSAGES];
        at: number;
      }>,
    ) {
      state.lastValidation = { success: false, rateLimited: false, ...action.payload };
    },
    /** The iOS debug menu's "reset token validation": the next check runs whatever the cooldown says. */
    validationCooldownReset(state) {
      state.lastValidatedAt = null;
    },
    failureRecorded(state, action: PayloadAction<{ error: string }>) {
      state.lastError = action.payload.error;
    },
    messagingEnableAnswered(state, action: PayloadAction<{ success: boolean }>) {
      state.messagingEnabled = action.payload.success;
    },
    messagingEnableFailed(state, action: PayloadAction<{ error: string }>) {
      state.messagingEnabled = false;
      state.lastError = action.payload.error;
    },
    /** spec §8: the push provider refused this browser; messaging setup stops (see providerRefusal). */
    pushProviderRefused(state, action: PayloadAction<{ refusal: ProviderRefusal; message: string }>) {
      state.providerRefusal = action.payload.refusal;
      state.tokenStatus = 'off';
      state.creationAttempt = 0;
      // What the gate says (screens word it; no "tries again" for a refusal that stops setup).
      state.lastError =
        CLOSED_GATE_MESSAGES[action.payload.refusal === 'noIndexedDb' ? 'noIndexedDb' : 'refusedByBrowser'];
    },
    /** Sign-out removed this device's token document and the provider's token. */
    deviceReleased(state) {
      state.tokenStatus = 'off';
      state.lastValidatedAt = null;
      state.lastValidation = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, (state) => ({
      ...initialState,
      support: state.support,
      environmentEnabled: state.environmentEnabled,
      permission: state.permission,
      providerRefusal: state.providerRefusal,
    }));
  },
});

export const {
  pushProviderRefused,
  supportDetected,
  permissionChanged,
  permissionRequested,
  promptDismissed,
  monitoringStarted,
  monitoringStopped,
  permissionWaitStarted,
  permissionBlocked,
  tokenCreationStarted,
  tokenCreationRetried,
  tokenCreationFailed,
  tokenSaved,
  validationStarted,
  validationFinished,
  validationRequested,
  validationSkipped,
  validationCooldownReset,
  failureRecorded,
  messagingEnableAnswered,
  messagingEnableFailed,
  deviceReleased,
} = pushSlice.actions;

/** Sign-out asks the push saga to remove this device's token before the session ends (QUALITY.md). */
export const deviceReleaseRequested = createAction('push/deviceReleaseRequested');

export default pushSlice.reducer;

interface WithPush {
  push: PushState;
}
interface WithPushAndUser extends WithPush {
  user: UserState;
  app: { rootMounted: boolean };
}

export const selectPush = (state: WithPush): PushState => state.push;
export const selectPushSupport = (state: WithPush): PushSupport => state.push.support;
export const selectPushEnvironmentEnabled = (state: WithPush): boolean => state.push.environmentEnabled;
export const selectPermission = (state: WithPush): PermissionState => state.push.permission;
export const selectLastValidatedAt = (state: WithPush): number | null => state.push.lastValidatedAt;

/** Why token work does not run, most basic reason first; null when it may run. */
export type PushGateReason =
  | 'notMounted'
  | 'signedOut'
  | 'unsupported'
  | 'noIndexedDb'
  | 'refusedByBrowser'
  | 'environment'
  | 'noUserDoc'
  | 'notificationsOff'
  | 'pushNotChosen';

export interface PushGate {
  open: boolean;
  uid: string | null;
  reason: PushGateReason | null;
}

/**
 * spec §5: token work runs only if the user document exists, notificationSettings.enabled is true and the
 * delivery channels include push; and only where push is supported and enabled for the environment. It also
 * needs a signed-in person and a mounted app (spec §4: monitoring stops when the provider is torn down).
 */
export const selectPushGate = createSelector(
  [
    (state: WithPushAndUser) => state.app.rootMounted,
    (state: WithPushAndUser) => state.user.status,
    (state: WithPushAndUser) => state.user.authUser?.uid ?? null,
    (state: WithPushAndUser) => state.user.userDocExists,
    (state: WithPushAndUser) => state.user.notificationSettings,
    selectPushSupport,
    selectPushEnvironmentEnabled,
    (state: WithPushAndUser) => state.push.providerRefusal,
  ],
  (mounted, status, uid, docExists, settings, support, environmentEnabled, refusal): PushGate => {
    const closed = (reason: PushGateReason): PushGate => ({ open: false, uid, reason });
    if (!mounted) return closed('notMounted');
    if (status !== 'signedIn' || uid === null) return closed('signedOut');
    if (!support.supported) {
      const onlyIndexedDb = support.missing.length === 1 && support.missing[0] === 'indexedDb';
      return closed(onlyIndexedDb ? 'noIndexedDb' : 'unsupported');
    }
    if (refusal !== null) return closed(refusal === 'noIndexedDb' ? 'noIndexedDb' : 'refusedByBrowser');
    if (!environmentEnabled) return closed('environment');
    if (!docExists || settings === null) return closed('noUserDoc');
    if (!settings.enabled) return closed('notificationsOff');
    if (!wantsPush(settings)) return closed('pushNotChosen');
    return { open: true, uid, reason: null };
  },
);
