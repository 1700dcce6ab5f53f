// Route modules and screens' parts load lazily (spec §2). A chunk that fails to load — a 404 after a new deploy, a
// dropped connection — is not an "unexpected error" for the router's default error page: the loader answers a
// route (or a component, for React's lazy()) that runs the recovery of spec §4 (reload once, then the error screen
// with a retry). Anything else still reaches the router's own default error element (spec §2), since no route sets
// an errorElement.
import type { LazyRouteFunction, RouteObject } from 'react-router-dom';
import { isChunkLoadError } from '@/platform/chunks';
import { ChunkLoadFailed } from './ChunkLoadFailed';

export { isChunkLoadError };

type RouteModule = Awaited<ReturnType<LazyRouteFunction<RouteObject>>>;

export function lazyRoute(load: () => Promise<RouteModule>): () => Promise<RouteModule> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      if (isChunkLoadError(error)) return { Component: ChunkLoadFailed };
      throw error;
    }
  };
}
