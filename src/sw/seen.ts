// The message ids this worker has already delivered, so a push that arrives twice (a retry of the push service,
// FCM's at-least-once delivery) reaches the person once. Kept in memory and in Cache Storage, because the browser
// stops an idle worker within seconds and a retry can come after that.
import type { WorkerScope } from './scope';

export const SEEN_CACHE_NAME = 'qupm-push-seen-v1';
/** A path of this origin the list is stored under; never requested from the network. */
export const SEEN_CACHE_KEY = '/__qupm/push-seen';
/** The newest ids kept; duplicates come within minutes, so a short list is plenty. */
export const SEEN_LIMIT = 200;

export interface SeenMessages {
  /** Records the id and says whether it had been seen before (check and record in one step). */
  checkAndRecord(messageId: string): Promise<boolean>;
}

function parseIds(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function createSeenMessages(scope: Pick<WorkerScope, 'caches'>, limit = SEEN_LIMIT): SeenMessages {
  let ids: string[] = [];
  let loaded: Promise<void> | null = null;
  let saving: Promise<void> = Promise.resolve();

  const load = (): Promise<void> =>
    (loaded ??= (async () => {
      try {
        const cache = await scope.caches.open(SEEN_CACHE_NAME);
        const stored = await cache.match(SEEN_CACHE_KEY);
        if (stored) ids = parseIds(await stored.text()).slice(-limit);
      } catch {
        // Storage unavailable: memory alone still stops duplicates while this worker runs.
      }
    })());

  const save = (snapshot: string[]): Promise<void> => {
    saving = saving
      .then(async () => {
        const cache = await scope.caches.open(SEEN_CACHE_NAME);
        await cache.put(
          SEEN_CACHE_KEY,
          new Response(JSON.stringify(snapshot), { headers: { 'Content-Type': 'application/json' } }),
        );
      })
      .catch(() => undefined);
    return saving;
  };

  return {
    async checkAndRecord(messageId) {
      await load();
      // From here to the push is synchronous, so two pushes at once cannot both find the id new.
      if (ids.includes(messageId)) return true;
      ids = [...ids, messageId].slice(-limit);
      await save(ids);
      return false;
    },
  };
}
