// Choices a person makes for this device that outlive a reload but are no account's business: "Not now" on the
// home's notifications card. Kept in local storage under keys of their own module (so the shell, which never
// reads them, carries none of it), and validated when read: anything but the value written counts as no choice.
import type { KeyValueStore } from './storage';
import { readString, removeKey, writeString } from './storage';

export const DEVICE_CHOICE_KEYS = {
  pushPromptDismissed: 'push_prompt_dismissed',
} as const;
export type DeviceChoiceKey = (typeof DEVICE_CHOICE_KEYS)[keyof typeof DEVICE_CHOICE_KEYS];

const DISMISSED = 'dismissed';

/** Whether "Not now" was chosen on this device; a value of any other shape is removed and counts as no. */
export function readPushPromptDismissed(store: KeyValueStore | null): boolean {
  const value = readString(store, DEVICE_CHOICE_KEYS.pushPromptDismissed);
  if (value === DISMISSED) return true;
  if (value !== null) removeKey(store, DEVICE_CHOICE_KEYS.pushPromptDismissed);
  return false;
}

/** Remembers "Not now" on this device (whether it could be written). */
export function rememberPushPromptDismissed(store: KeyValueStore | null): boolean {
  return writeString(store, DEVICE_CHOICE_KEYS.pushPromptDismissed, DISMISSED);
}
