// An upload as an eventChannel (STYLE 8): it emits the bytes sent as they go, then the answer or the failure, and
// closing the channel aborts the upload (the person pressed Cancel, or the session ended).
import { END, eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';

export type UploadEvent<T> =
  | { type: 'progress'; sent: number; total: number }
  | { type: 'done'; result: T }
  | { type: 'failed'; error: unknown };

/** `start` uploads with the progress callback and abort signal it is given. */
export function createUploadChannel<T>(
  start: (onProgress: (sent: number, total: number) => void, signal: AbortSignal) => Promise<T>,
): EventChannel<UploadEvent<T>> {
  return eventChannel((emit) => {
    const controller = new AbortController();
    start((sent, total) => emit({ type: 'progress', sent, total }), controller.signal).then(
      (result) => {
        emit({ type: 'done', result });
        emit(END);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        emit({ type: 'failed', error });
        emit(END);
      },
    );
    return () => controller.abort();
  });
}

/** A file's bytes as a URL the page can show (an image) or download (a document); revoke it when done. */
export function objectUrlOf(file: Blob): string {
  return URL.createObjectURL(file);
}

export function revokeObjectUrl(url: string): void {
  URL.revokeObjectURL(url);
}
