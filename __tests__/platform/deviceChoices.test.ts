// "Not now" on the notifications card, remembered on this device and read back only in the shape written.
import {
  DEVICE_CHOICE_KEYS,
  readPushPromptDismissed,
  rememberPushPromptDismissed,
} from '@/platform/deviceChoices';
import { createFakeStore } from './fakes';

describe('the push prompt choice', () => {
  it('is remembered once written and read back after a reload', () => {
    const store = createFakeStore();
    expect(readPushPromptDismissed(store)).toBe(false);
    expect(rememberPushPromptDismissed(store)).toBe(true);
    expect(store.getItem(DEVICE_CHOICE_KEYS.pushPromptDismissed)).toBe('dismissed');
    expect(readPushPromptDismissed(store)).toBe(true);
  });

  it('counts a value of another shape as no choice and removes it', () => {
    const store = createFakeStore();
    store.setItem(DEVICE_CHOICE_KEYS.pushPromptDismissed, '{"x":1}');
    expect(readPushPromptDismissed(store)).toBe(false);
    expect(store.getItem(DEVICE_CHOICE_KEYS.pushPromptDismissed)).toBeNull();
  });

  it('counts no storage, or storage that throws, as no choice', () => {
    expect(readPushPromptDismissed(null)).toBe(false);
    expect(rememberPushPromptDismissed(null)).toBe(false);
    const blocked = createFakeStore({}, ['get', 'set']);
    expect(readPushPromptDismissed(blocked)).toBe(false);
    expect(rememberPushPromptDismissed(blocked)).toBe(false);
  });
});
