// What globalSetup started, kept for globalTeardown (Jest runs both in its parent process).
import type { FirebaseApp } from '../../../drivers/firebaseEmulators';

const KEY = Symbol.for('qupm.firebaseApp');

export function keepForTeardown(app: FirebaseApp): void {
  (globalThis as Record<symbol, unknown>)[KEY] = app;
}

export function takeForTeardown(): FirebaseApp | undefined {
  const app = (globalThis as Record<symbol, unknown>)[KEY] as FirebaseApp | undefined;
  delete (globalThis as Record<symbol, unknown>)[KEY];
  return app;
}
