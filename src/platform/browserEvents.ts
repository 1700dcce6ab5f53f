// eventChannel factories for the browser sources the app sagas listen to. Each subscribes, emits plain data,
// and returns its unsubscribe, so a cancelled saga leaves no listener behind.
import { buffers, eventChannel } from 'redux-saga';
import { onChunkLoadFailure } from './chunks';
import type { EventChannel } from 'redux-saga';

export type VisibilityEvent = { visible: boolean };

export function createVisibilityChannel(): EventChannel<VisibilityEvent> {
  return eventChannel((emit) => {
    if (typeof document === 'undefined') return () => undefined;
    const onChange = (): void => emit({ visible: document.visibilityState === 'visible' });
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  });
}

export type ConnectivityEvent = { online: boolean };

export function createConnectivityChannel(target: Window): EventChannel<ConnectivityEvent> {
  return eventChannel((emit) => {
    const onOnline = (): void => emit({ online: true });
    const onOffline = (): void => emit({ online: false });
    target.addEventListener('online', onOnline);
    target.addEventListener('offline', onOffline);
    return () => {
      target.removeEventListener('online', onOnline);
      target.removeEventListener('offline', onOffline);
    };
  });
}

/** Emits whenever the display mode may have changed (the app was installed, or opened in its own window). */
export function createDisplayModeChannel(
  matchMedia: (query: string) => MediaQueryList,
): EventChannel<{ changed: true }> {
  return eventChannel((emit) => {
    const queries = ['(display-mode: standalone)', '(display-mode: minimal-ui)'].map((q) => matchMedia(q));
    const onChange = (): void => emit({ changed: true });
    queries.forEach((q) => q.addEventListener('change', onChange));
    return () => queries.forEach((q) => q.removeEventListener('change', onChange));
  });
}

export type InstallPromptEvent = { type: 'captured' } | { type: 'installed' };

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/**
 * The browser's install prompt cannot live in the store (it is not data), so it is held here until the
 * person asks to install; the store only knows that one is available.
 */
let heldInstallPrompt: BeforeInstallPromptEvent | null = null;

export function createInstallPromptChannel(target: Window): EventChannel<InstallPromptEvent> {
  return eventChannel((emit) => {
    const onPrompt = (event: Event): void => {
      event.preventDefault();
      heldInstallPrompt = event as BeforeInstallPromptEvent;
      emit({ type: 'captured' });
    };
    const onInstalled = (): void => {
      heldInstallPrompt = null;
      emit({ type: 'installed' });
    };
    target.addEventListener('beforeinstallprompt', onPrompt);
    target.addEventListener('appinstalled', onInstalled);
    return () => {
      target.removeEventListener('beforeinstallprompt', onPrompt);
      target.removeEventListener('appinstalled', onInstalled);
    };
  });
}

/** Shows the held install prompt; resolves with whether the person accepted. */
export async function showInstallPrompt(): Promise<boolean> {
  const prompt = heldInstallPrompt;
  if (!prompt) return false;
  heldInstallPrompt = null;
  await prompt.prompt();
  const choice = await prompt.userChoice;
  return choice.outcome === 'accepted';
}

/** Chunk load failures reported from outside the sagas (src/platform/chunks.ts); at most one waits. */
export function createChunkFailureChannel(): EventChannel<{ failed: true }> {
  return eventChannel((emit) => onChunkLoadFailure(() => emit({ failed: true })), buffers.sliding(1));
}
