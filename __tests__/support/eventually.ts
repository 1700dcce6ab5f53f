// Waiting for something that happens on its own time (a live delivery, a fake that answers on a later turn of the
// event loop, a document an emulator's trigger writes): `check` (which may be async) is tried again until it passes,
// and the test fails with its last error when time is up.
// performance.now(), not Date.now(): the Firebase harness pins Date.now() to the backend's clock.

export interface EventuallyOptions {
  /** How long `check` may keep failing. */
  timeoutMs?: number;
  /** The pause between two tries. */
  everyMs?: number;
}

export async function eventually(
  check: () => void | Promise<void>,
  { timeoutMs = 4000, everyMs = 20 }: EventuallyOptions = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
