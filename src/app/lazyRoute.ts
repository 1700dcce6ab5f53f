// Route modules load lazily (spec §2). A chunk that fails to load — a 404 after a new deploy, a dropped
// connection — is not an "unexpected error" for the router's default error page: the loader answers a route that
// runs the recovery of spec §4 (reload once, then the error screen with a retry). Anything else still reaches the
// router's own default error element (spec §2), since no route sets an errorElement.
import type { LazyRouteFunction, RouteObject } from 'react-router-dom';
import { ChunkLoadFailed } from './ChunkLoadFailed';

type RouteModule = Awaited<ReturnType<LazyRouteFunction<RouteObject>>>;

/** webpack's ChunkLoadError, and mini-css-extract-plugin's failure to load a route's CSS. */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  return (
    name === 'ChunkLoadError' ||
    code === 'CSS_CHUNK_LOAD_FAILED' ||
    (typeof message === 'string' && /^Loading (CSS )?chunk \S+ failed/.test(message))
  );
}

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
