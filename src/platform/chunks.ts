// What a failed load of a lazily loaded chunk looks like (spec §4 "Chunk load failure"): webpack's ChunkLoadError
// (a script chunk) and mini-css-extract-plugin's CSS_CHUNK_LOAD_FAILED (its styles). Every lazy import — routes,
// screens' parts, the backend adapter, the sagas loaded on demand — is recovered the same way
// (src/sagas/chunkRecoverySaga.ts).

/** webpack's ChunkLoadError, and mini-css-extract-plugin's failure to load a chunk's CSS. */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  return (
    name === 'ChunkLoadError' ||
    code === 'CSS_CHUNK_LOAD_FAILED' ||
    (typeof message === 'string' && /^Loading (CSS )?chunk \S+ failed/.test(message))
  );
}

const failureListeners = new Set<() => void>();

/**
 * A lazy chunk failed where no saga or React boundary awaits the import itself — the Firebase SDK's own chunks
 * (Firestore, Functions, Messaging, Storage), loaded inside the adapter. The adapter still rejects the call; this
 * tells whoever recovers (src/sagas/chunkRecoverySaga.ts) so the spec's recovery runs instead of a
 * "can't reach QuPM" that no retry could fix.
 */
export function reportChunkLoadFailure(): void {
  failureListeners.forEach((listener) => listener());
}

/** Hears every reportChunkLoadFailure(); returns the unsubscribe. */
export function onChunkLoadFailure(listener: () => void): () => void {
  failureListeners.add(listener);
  return () => {
    failureListeners.delete(listener);
  };
}
