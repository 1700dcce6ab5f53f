// Uploads to the embedded server: the file's bytes as the request body, with progress and
// abort. A browser uploads with XMLHttpRequest, whose upload events are the only way to see bytes leave (fetch
// has none); where there is no XMLHttpRequest (Node: the contract suite, scripts), fetch sends it and progress is
// reported once, at the end.
import { BackendError, UPLOAD_CANCELLED } from '../ports';
import type { UploadOptions } from '../ports';
import { OFFLINE_MESSAGE } from './http';
import type { Fetch } from './http';

export interface UploadRequest extends UploadOptions {
  url: string;
  token: string;
  body: Blob;
}

/** The answer as a Response (errorFromResponse and the JSON reader take one), or a BackendError. */
export type Upload = (request: UploadRequest) => Promise<Response>;

const cancelled = (): BackendError => new BackendError('UNAVAILABLE', UPLOAD_CANCELLED);

export function xhrUpload(request: UploadRequest): Promise<Response> {
  const { url, token, body, onProgress, signal } = request;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelled());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = (): void => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', url);
    xhr.responseType = 'text';
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    // The server ignores it (the bytes decide); it only keeps any proxy from treating the body as a form.
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    };
    xhr.onload = () => {
      done();
      resolve(
        new Response(xhr.responseText, {
          status: xhr.status,
          headers: { 'content-type': xhr.getResponseHeader('content-type') ?? 'application/json' },
        }),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new BackendError('UNAVAILABLE', OFFLINE_MESSAGE));
    };
    xhr.onabort = () => {
      done();
      reject(cancelled());
    };
    xhr.send(body);
  });
}

export function fetchUpload(fetchImpl: Fetch): Upload {
  return async ({ url, token, body, onProgress, signal }) => {
    if (signal?.aborted) throw cancelled();
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          'Content-Type': 'application/octet-stream',
        },
        body,
        signal,
      });
    } catch {
      throw signal?.aborted ? cancelled() : new BackendError('UNAVAILABLE', OFFLINE_MESSAGE);
    }
    onProgress?.(body.size, body.size);
    return response;
  };
}

/** XMLHttpRequest where the platform has it, fetch elsewhere. */
export function defaultUpload(fetchImpl: Fetch): Upload {
  return typeof XMLHttpRequest === 'undefined' ? fetchUpload(fetchImpl) : xhrUpload;
}
