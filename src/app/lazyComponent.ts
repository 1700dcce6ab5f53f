// React's lazy() with spec §4's chunk recovery, for the parts of screens that load on demand. Its own module, so
// that it travels with the screens that use it, not in the shell (src/app/lazyRoute.ts has the routes' loader).
import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';
import { isChunkLoadError } from '@/platform/chunks';
import { ChunkLoadFailed } from './ChunkLoadFailed';

/**
 * React's lazy() for a part of a screen (the conversation, consultant tools, …), with the same recovery as a
 * route: a chunk that fails to load renders ChunkLoadFailed in its place, which reloads once, then shows the
 * error screen with Try again.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  loaded?: () => ComponentType<P> | undefined,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const ready = loaded?.();
    // Fetched already (asked for ahead): handed over within the call, so React draws it without suspending. A part
    // that suspends shows its fallback, and React reveals it no sooner than 300 ms after (its fallback throttle).
    // React's lazy reads only `then` of what it is given (its types ask for a Promise).
    if (ready) {
      const now = {
        then: (resolve: (module: { default: ComponentType<P> }) => void) => resolve({ default: ready }),
      };
      return now as unknown as Promise<{ default: ComponentType<P> }>;
    }
    return (async () => {
      try {
        return { default: await load() };
      } catch (error) {
        if (isChunkLoadError(error)) return { default: ChunkLoadFailed as unknown as ComponentType<P> };
        throw error;
      }
    })();
  });
}
