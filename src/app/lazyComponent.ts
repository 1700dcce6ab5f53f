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
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    try {
      return { default: await load() };
    } catch (error) {
      if (isChunkLoadError(error)) return { default: ChunkLoadFailed as unknown as ComponentType<P> };
      throw error;
    }
  });
}
