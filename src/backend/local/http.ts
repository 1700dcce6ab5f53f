// HTTP to the embedded server: JSON in and out, the session's bearer token (refreshed when due), and every
// failure turned into a BackendError with words a person understands.
import { BackendError } from '../ports';
import { ERROR_STATUSES } from '@core/errors';
import type { ErrorReason, ErrorStatus } from '@core/errors';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export const OFFLINE_MESSAGE = "Can't reach QuPM right now. Check your connection and try again.";

function isErrorStatus(value: unknown): value is ErrorStatus {
  return typeof value === 'string' && (ERROR_STATUSES as readonly string[]).includes(value);
}

/** The BackendError an error answer stands for; unknown shapes become a generic one for its HTTP status. */
export async function errorFromResponse(response: Response): Promise<BackendError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: fall through to the generic message
  }
  const error = (body as { error?: { status?: unknown; message?: unknown; details?: unknown } } | null)
    ?.error;
  if (error && isErrorStatus(error.status) && typeof error.message === 'string') {
    // The reason travels in `details`, as a Cloud Function's HttpsError carries it (core/errors.ts ErrorBody).
    const details = error.details as { reason?: unknown } | null | undefined;
    const reason = typeof details === 'object' && details !== null ? details.reason : undefined;
    return new BackendError(
      error.status,
      error.message.slice(0, 300),
      typeof reason === 'string' ? (reason as ErrorReason) : undefined,
    );
  }
  if (response.status === 429)
    return new BackendError('RESOURCE_EXHAUSTED', 'Too many attempts. Wait a minute and try again.');
  if (response.status === 401) return new BackendError('UNAUTHENTICATED', 'Please sign in again.');
  if (response.status >= 500)
    return new BackendError('UNAVAILABLE', 'QuPM is having trouble. Try again in a moment.');
  return new BackendError('INTERNAL', 'Something went wrong.');
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Attach the bearer token (every route but the auth ones). */
  token?: string;
  signal?: AbortSignal;
  /** Let the request outlive the page (fetch keepalive: a read mark sent as the page hides). */
  keepalive?: boolean;
}

export async function requestJson<T>(
  fetchImpl: Fetch,
  url: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  } catch {
    throw new BackendError('UNAVAILABLE', OFFLINE_MESSAGE);
  }
  if (!response.ok) throw await errorFromResponse(response);
  try {
    return (await response.json()) as T;
  } catch {
    throw new BackendError('INTERNAL', 'QuPM sent an answer it could not read.');
  }
}
