// Push state in words for people: the one mapping every screen that shows push state uses.
// spec §8's messages stay word for word in the store and in the iOS debug menu (they are requirements); screens
// say what they mean and what to do. A failure this mapping does not know is never shown raw: it reads as a
// plain "couldn't set up" with the next step, and its own text stays in the state for the debug menu.
import type { BrowserFamily } from '@/platform';
import {
  CLOSED_GATE_MESSAGES,
  PERMISSION_SKIP_MESSAGES,
  PUSH_FAILURES,
  VALIDATION_MESSAGES,
} from '@/store/pushSlice';
import type { ValidationMessage } from '@/store/pushSlice';

const RETRYING = 'QuPM tries again every 30 minutes, or press “Check this device again”.';

/** Each result of validateAndRefreshToken (and of a validation the closed gate answered), for people. */
export const VALIDATION_WORDS: Record<ValidationMessage, string> = {
  [VALIDATION_MESSAGES.noUserId]: 'Sign in to get notifications on this device.',
  [VALIDATION_MESSAGES.disabled]: 'Push is off on development hosts (localhost and IP addresses).',
  [VALIDATION_MESSAGES.valid]: 'All good: this device gets your notifications.',
  [VALIDATION_MESSAGES.refreshed]: 'All good: QuPM renewed this device’s registration for notifications.',
  [VALIDATION_MESSAGES.generated]: 'All good: this device is now registered for notifications.',
  [VALIDATION_MESSAGES.failedAfterValidation]: `This device’s registration for notifications couldn’t be renewed. ${RETRYING}`,
  [VALIDATION_MESSAGES.failed]: `This device couldn’t be registered for notifications. ${RETRYING}`,
  [CLOSED_GATE_MESSAGES.notMounted]: 'QuPM is still starting: try again in a moment.',
  [CLOSED_GATE_MESSAGES.unsupported]: 'This browser can’t receive push notifications.',
  [CLOSED_GATE_MESSAGES.noIndexedDb]:
    'This browser can’t receive push notifications here: it keeps no storage for QuPM (a private window, or storage is blocked).',
  [CLOSED_GATE_MESSAGES.refusedByBrowser]:
    'The push service doesn’t support this browser, so QuPM can’t set up push notifications here.',
  [CLOSED_GATE_MESSAGES.noUserDoc]:
    'Your account settings couldn’t be read, so there is nothing to check yet.',
  [CLOSED_GATE_MESSAGES.notificationsOff]:
    'Notifications are off for your account, so there is nothing to check.',
  [CLOSED_GATE_MESSAGES.pushNotChosen]:
    'Push notifications are not one of your chosen ways, so there is nothing to check.',
  [PERMISSION_SKIP_MESSAGES.default]:
    'You haven’t allowed notifications on this device yet, so there is nothing to check: press “Allow notifications”.',
  [PERMISSION_SKIP_MESSAGES.denied]:
    'Notifications are blocked for QuPM in this browser’s settings, so there is nothing to check.',
};

/** The last validation's result for people (an unknown one — there is none today — reads as not checked). */
export function validationWords(message: string): string {
  return (VALIDATION_WORDS as Record<string, string>)[message] ?? 'Not checked yet.';
}

const FAILURE_WORDS: Record<string, string> = {
  [PUSH_FAILURES.noToken]: `The push service gave this device no registration. ${RETRYING}`,
  [PUSH_FAILURES.providerTimeout]: `The push service didn’t answer in time (are you offline?). ${RETRYING}`,
  [PUSH_FAILURES.workerNotReady]: 'QuPM’s background worker isn’t ready yet. Reload the page and try again.',
  [PUSH_FAILURES.notAllowed]:
    'You haven’t allowed notifications on this device yet: press “Allow notifications”.',
  [PUSH_FAILURES.refusedInWindow]: PUSH_FAILURES.refusedInWindow,
  [PUSH_FAILURES.swTimeout]:
    'QuPM’s background worker didn’t answer. Reload the page; if it keeps happening, restart the browser.',
  [PUSH_FAILURES.permissionPromptSkipped]: PUSH_FAILURES.permissionPromptSkipped,
  // The provider refused the browser (spec §8): setup stopped, nothing retries.
  [CLOSED_GATE_MESSAGES.refusedByBrowser]:
    'The push service doesn’t support this browser, so QuPM can’t set up push notifications here.',
  [CLOSED_GATE_MESSAGES.noIndexedDb]:
    'This browser keeps no storage for QuPM here (a private window, or storage is blocked), so push can’t work.',
};

/** A failure of token work (`push.lastError`), for people: what it means and what to do. */
export function pushFailureWords(error: string | null): string {
  return (error !== null && FAILURE_WORDS[error]) || `Push couldn’t be set up on this device. ${RETRYING}`;
}

/** The one sentence a blocked permission leads with, on every browser. */
export const BLOCKED_HEADLINE = 'Notifications are blocked for QuPM in this browser.';

/** How to allow notifications again, per browser family: short, the words each browser uses. */
export const UNBLOCK_STEPS: Record<BrowserFamily, { where: string; steps: string[] }> = {
  'chromium-desktop': {
    where: 'Chrome or Edge on a computer',
    steps: [
      'Click the icon left of the address (a tune or lock icon).',
      'Set Notifications to Allow, then reload QuPM.',
    ],
  },
  android: {
    where: 'Chrome on Android',
    steps: [
      'Tap ⋮ → Settings → Site settings → Notifications (or long-press the installed app → App info → Notifications).',
      'Allow QuPM, then come back.',
    ],
  },
  ios: {
    where: 'iPhone or iPad (QuPM added to the Home Screen)',
    steps: ['Open Settings → Notifications → QuPM.', 'Turn on Allow Notifications, then open QuPM again.'],
  },
  firefox: {
    where: 'Firefox',
    steps: [
      'Click the icon left of the address, then the × beside “Blocked: Send Notifications”.',
      'Reload QuPM and allow notifications when asked.',
    ],
  },
  'safari-mac': {
    where: 'Safari on a Mac',
    steps: [
      'Open Safari → Settings → Websites → Notifications.',
      'Set this site to Allow, then reload QuPM.',
    ],
  },
  other: {
    where: 'this browser',
    steps: ['Open the browser’s site settings for this site.', 'Allow notifications, then reload QuPM.'],
  },
};
