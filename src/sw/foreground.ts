// The worker's side of foregroundHandled (spec §7): while a push waits for the focused page, the page's answer
// resolves the wait; no answer within the wait means no page showed it.

export interface ForegroundWaits {
  /** Resolves true when a page answers foregroundHandled for the id within `ms`, false otherwise. */
  wait(messageId: string, ms: number): Promise<boolean>;
  /** A page's foregroundHandled; an answer nobody waits for is ignored. */
  handled(messageId: string): void;
}

export function createForegroundWaits(
  setTimer: (fn: () => void, ms: number) => unknown = setTimeout,
  clearTimer: (id: unknown) => void = (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
): ForegroundWaits {
  const waiting = new Map<string, (handled: boolean) => void>();
  return {
    wait(messageId, ms) {
      return new Promise<boolean>((resolve) => {
        const timer = setTimer(() => {
          waiting.delete(messageId);
          resolve(false);
        }, ms);
        waiting.set(messageId, (handled) => {
          clearTimer(timer);
          waiting.delete(messageId);
          resolve(handled);
        });
      });
    },
    handled(messageId) {
      waiting.get(messageId)?.(true);
    },
  };
}
