// Small browser effects the sagas `call` (the clock, a reload, Cache Storage, the app badge, the browser's own
// dialogs), each behind a function so saga tests provide answers here and nothing deeper. The service worker has
// its own owner (./serviceWorker.ts); the browser's event sources are in ./browserEvents.ts.

/** The clock, as an effect (STYLE.md 7: time only through effects). */
export function now(): number {
  return Date.now();
}

/** Deletes every Cache Storage cache of this origin (the precache repairs itself from the network). */
export async function clearAllCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const names = await caches.keys();
  await Promise.all(names.map((name) => caches.delete(name)));
}

/**
 * Lets the browser handle what waits (a tap, a paint) before the caller goes on, so a start-up made of several
 * steps is several tasks, none holding the page for all of them: scheduler.yield where the browser has it (the
 * rest of the work keeps its place ahead of other tasks), else a task of its own.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export function reloadPage(): void {
  window.location.reload();
}

/** spec §5: a count above 0 sets the app badge, otherwise it clears it. Where badges are missing, nothing. */
export async function applyAppBadge(count: number): Promise<void> {
  try {
    const nav = navigator as Navigator & {
      setAppBadge?: (count?: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    if (count > 0) await nav.setAppBadge?.(count);
    else await nav.clearAppBadge?.();
  } catch {
    // The Badging API refuses outside an installed app in some browsers: the badge is only a hint.
  }
}

/** The browser's own dialogs, which the iOS debug menu uses (spec §2: "opens a prompt"). */
export interface Dialogs {
  prompt(text: string): string | null;
  alert(text: string): void;
}

export const browserDialogs: Dialogs = {
  prompt: (text) => window.prompt(text),
  alert: (text) => window.alert(text),
};
