// Every duration and count the app runs on, in one place, each with the spec's number (spec §9) or, where the
// spec is silent, the reason for the choice. Sagas wait only through `delay`/`race`/`throttle` on these; the
// store (swHealthSlice) and the service worker (src/sw, under its own tsconfig) read them too, so this module
// imports nothing.

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---- service-worker protocol

/** spec §9: messaging enable confirmation timeout (and every other request to the worker). */
export const SW_MESSAGE_TIMEOUT_MS = 5 * SECOND;

// ---- push token lifecycle

/** spec §9: token validation cooldown; calls within it count as valid (rate-limited). */
export const TOKEN_VALIDATION_COOLDOWN_MS = 10 * SECOND;
/** spec §9: visibility-change rate limit. */
export const VISIBILITY_THROTTLE_MS = 5 * SECOND;
/** spec §9: periodic token check. */
export const TOKEN_CHECK_INTERVAL_MS = 30 * MINUTE;
/** spec §9: startup validation delayed 3 s. */
export const STARTUP_VALIDATION_DELAY_MS = 3 * SECOND;
/** spec §9: on iOS, monitoring validation after 2 s. */
export const IOS_MONITORING_VALIDATION_DELAY_MS = 2 * SECOND;
/** spec §9: on iOS, the visibility check after 1 s. */
export const IOS_VISIBILITY_CHECK_DELAY_MS = 1 * SECOND;
/** spec §9: token creation retries 3 times … */
export const TOKEN_CREATION_RETRIES = 3;
/** … with the delay starting at 1 s and doubling (1 s, 2 s, 4 s). */
export const TOKEN_RETRY_BASE_DELAY_MS = 1 * SECOND;
/** spec §9: waits of 0.5 to 2 s after saves … (the low end: the save is already acknowledged). */
export const AFTER_SAVE_WAIT_MS = 500;
/** … and after permission grants (Chromium and Safari settle the new permission before a subscribe works). */
export const AFTER_PERMISSION_WAIT_MS = 1 * SECOND;
/**
 * Not in the spec: a push-provider call (subscribe, getToken, deleteToken) gives up after this. Offline,
 * PushManager.subscribe never answers (ARCHITECTURE.md), and a hung call must never hold the lock.
 */
export const PUSH_PROVIDER_TIMEOUT_MS = 10 * SECOND;
/**
 * Not in the spec: a backend call made while signing out gives up after this, so an offline sign-out still
 * ends the session promptly.
 */
export const SIGN_OUT_CLEANUP_TIMEOUT_MS = 5 * SECOND;
/** Sign-out waits at most this for the token release: a document delete and a provider delete, each bounded. */
export const SIGN_OUT_RELEASE_TIMEOUT_MS = 2 * SIGN_OUT_CLEANUP_TIMEOUT_MS + SECOND;
/**
 * QUALITY.md "Token bookkeeping is cheap": the token document's lastUsed is refreshed at most once a day; a check
 * that finds the same token with a fresher stamp touches no backend.
 */
export const TOKEN_TOUCH_INTERVAL_MS = 1 * DAY;

// ---- accounts

/**
 * Not in the spec: on Firebase, sign-up waits at most this for the users document the on_user_created trigger
 * writes, to give it the name the person chose (src/backend/firebase/auth.ts). Cold functions start in seconds;
 * a trigger later than this reads the account after the name was saved, so the document has it anyway.
 */
export const USER_DOCUMENT_WAIT_MS = 10 * SECOND;

// ---- channels and offers

/** Not in the spec: what the person has seen is marked read at most once a second (one write per burst). */
export const READ_MARK_THROTTLE_MS = 1 * SECOND;
/** Not in the spec: what reached this device is marked delivered at most once a second, as read marks. */
export const DELIVERED_MARK_THROTTLE_MS = 1 * SECOND;
/** Not in the spec: a typer signals at most once every 3 s (the server limits them: core/receipts.ts). */
export const TYPING_SIGNAL_EVERY_MS = 3 * SECOND;
/** Not in the spec: a typing signal shows for 6 s: two signals of a steady typer overlap, a pause of a few seconds ends it. */
export const TYPING_SHOWN_MS = 6 * SECOND;

// ---- live conversation

/**
 * Not in the spec: live messages are applied at most this many per action (and render), a task apart: a catch-up
 * of 500 at once otherwise made one long task of 150-200 ms in a 1,000-message conversation (npm run bench).
 */
export const LIVE_SLICE_MAX = 50;
/** Not in the spec: a crashed watcher waits 1 s before it is started again, doubling for each crash in a row … */
export const SUPERVISOR_BACKOFF_START_MS = 1 * SECOND;
/** … up to 30 s (the stream's own reconnect backoff has the same ceiling). */
export const SUPERVISOR_BACKOFF_MAX_MS = 30 * SECOND;
/** A watcher that ran this long before it crashed starts again after the shortest wait. */
export const SUPERVISOR_STABLE_AFTER_MS = 1 * MINUTE;
/**
 * Not in the spec: "Reconnecting…" shows only once live data has been interrupted this long, so a planned
 * reconnect (a stream renewed as its token expires) or a blip never flickers on the screen.
 */
export const RECONNECTING_NOTICE_DELAY_MS = 2 * SECOND;
/** Not in the spec: an outbox retry waits 1 s after a failure that passes, doubling for each failure … */
export const OUTBOX_RETRY_START_MS = 1 * SECOND;
/** … up to 30 s; the network coming back or live data flowing again retries at once. */
export const OUTBOX_RETRY_MAX_MS = 30 * SECOND;
/**
 * Not in the spec: a send that has not answered after this is treated as failed and retried. Offline, the
 * Firebase SDK's write waits for the network without answering; the retry uses the same id, so it is safe.
 */
export const OUTBOX_SEND_TIMEOUT_MS = 15 * SECOND;
/** Not in the spec: a draft is written to the device this long after the last keystroke (and on page hide). */
export const DRAFT_SAVE_DEBOUNCE_MS = 500;

// ---- push display (the worker and the page)

/**
 * Not in the spec: how long the worker waits for the focused page's foregroundHandled before it shows the system
 * notification itself. The same 5 s as every other answer of the protocol (spec §9): a page that has not
 * answered by then is treated as not there, so a push is never lost, only (rarely) shown twice.
 */
export const FOREGROUND_HANDLED_WAIT_MS = SW_MESSAGE_TIMEOUT_MS;
/** Not in the spec: how long an in-app notice stays before it goes by itself (WCAG 2.2.1: long enough to read). */
export const NOTICE_DURATION_MS = 8 * SECOND;
/** A live message older than this when it arrives (a catch-up after time offline) gets no in-app notice. */
export const LIVE_NOTICE_MAX_AGE_MS = 5 * MINUTE;

// ---- service-worker health (spec §4, §9)

/** spec §4, §9: restart window 5 minutes (more than 3 restarts within it is unhealthy). */
export const SW_RESTART_WINDOW_MS = 5 * MINUTE;
/** spec §4: the assessment starts after at least 5 minutes of uptime. */
export const SW_ASSESSMENT_MIN_UPTIME_MS = 5 * MINUTE;
/** spec §9: SW restart cooldown 30 s between worker restarts the app triggers. */
export const SW_RESTART_COOLDOWN_MS = 30 * SECOND;
/**
 * Not in the spec: a HEALTH_CHECK every minute while the app is open; a page that is open anyway keeps the worker
 * warm at this pace, and a stuck worker is noticed within a minute.
 */
export const SW_HEALTH_CHECK_INTERVAL_MS = 1 * MINUTE;

// ---- startup, updates, recovery

/** spec §4, §9: a start more than 60 s after the last one counts as a restart, otherwise a quick resume. */
export const STARTUP_RESTART_THRESHOLD_MS = 60 * SECOND;
/** spec §2, §9: the update banner shows for 5 s. */
export const UPDATE_BANNER_MS = 5 * SECOND;
/**
 * Not in the spec: while a tab stays open the app asks the browser for a new worker this often (browsers check by
 * themselves only on navigations and on push events a day apart).
 */
export const UPDATE_CHECK_INTERVAL_MS = 1 * HOUR;
/** spec §2, §9: the iOS debug button dims after 10 s. */
export const DEBUG_BUTTON_DIM_MS = 10 * SECOND;
/** Not in the spec: the debug menu waits at most this for the result of a check it started. */
export const DEBUG_RESULT_TIMEOUT_MS = 1 * MINUTE;
/**
 * Not in the spec: work kept until the first screen is drawn (Firestore's SDK, the conversation's chunk) waits at
 * most this from when it is first asked for, should the signal never come (src/platform/firstScreen.ts).
 */
export const FIRST_SCREEN_WAIT_MS = 2 * SECOND;

/**
 * Not in the spec: how long a new screen's heading keeps the focus while the screen settles (src/app/RouteFocus.tsx):
 * a heading drawn again (the last known state replaced by live data) or hidden a moment by a part still loading
 * would otherwise leave focus on the body.
 */
export const FOCUS_SETTLE_MS = 2 * SECOND;
