// HTTP to the embedded server: every route called through core/wire.ts's table (callRoute builds its URL from the
// table and reads its answer with the route's answer schema), JSON in and out, the bearer token when given, and
// every failure turned into a BackendError with words a person understands.
import { safeParse } from 'zod/mini';
import { BackendError } from '../ports';
import { ERROR_STATUSES } from '@core/errors';
import { FAILURE_WORDS, failureWords } from '@core/failureWords';
import type { ErrorReason, ErrorStatus } from '@core/errors';
import { ROUTES } from '@core/wire';
import type {
  JsonRouteName,
  PathParams,
  RouteAnswer,
  RouteBodyInput,
  RouteName,
  RouteQueryInput,
  Routes,
} from '@core/wire';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export const OFFLINE_MESSAGE = FAILURE_WORDS.offline;

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
    return new BackendError('RESOURCE_EXHAUSTED', failureWords('RESOURCE_EXHAUSTED'));
  if (response.status === 401) return new BackendError('UNAUTHENTICATED', failureWords('UNAUTHENTICATED'));
  if (response.status >= 500) return new BackendError('UNAVAILABLE', FAILURE_WORDS.serverTrouble);
  return new BackendError('INTERNAL', failureWords('INTERNAL'));
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Attach the bearer token (every route but the auth ones). */
  token?: string;
  signal?: AbortSignal;
  /** Let the request outlive the page (fetch keepalive: a read mark sent as the page hides). */
  keepalive?: boolean;
}

/** The words for an answer that is not what its route answers (not JSON, or not of its schema). */
export const UNREADABLE_ANSWER = FAILURE_WORDS.unreadableAnswer;

async function requestJson(fetchImpl: Fetch, url: string, options: RequestOptions = {}): Promise<unknown> {
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
    return (await response.json()) as unknown;
  } catch {
    throw new BackendError('INTERNAL', UNREADABLE_ANSWER);
  }
}

type Params<K extends RouteName> = PathParams<Routes[K]['path']>;

/** What a call of route K sends: its path params, its query and its body, each only where the route has one. */
export type RouteCall<K extends RouteName> = (keyof Params<K> extends never
  ? unknown
  : { params: Params<K> }) &
  (RouteQueryInput<K> extends undefined ? unknown : { query: RouteQueryInput<K> }) &
  (RouteBodyInput<K> extends undefined ? unknown : { body: RouteBodyInput<K> });

/** The address of route K (without the origin): its path with the params filled in, and its query. */
export function routeUrl<K extends RouteName>(
  name: K,
  params?: Params<K>,
  query?: Record<string, string | number | boolean | undefined>,
): string {
  const values = (params ?? {}) as Record<string, string>;
  const path = ROUTES[name].path.replace(/:([A-Za-z]+)/g, (_match, key: string) =>
    encodeURIComponent(values[key] ?? ''),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  return search.size > 0 ? `${path}?${search.toString()}` : path;
}

/** `value` read with route K's answer schema; an answer of another shape is a BackendError, never a cast. */
export function readAnswer<K extends RouteName>(name: K, value: unknown): RouteAnswer<K> {
  const schema = (ROUTES[name] as { answer?: Parameters<typeof safeParse>[0] }).answer;
  const result = schema ? safeParse(schema, value) : null;
  if (!result?.success) throw new BackendError('INTERNAL', UNREADABLE_ANSWER);
  return result.data as RouteAnswer<K>;
}

/**
 * Calls route K of the table: its method, its URL (params and query), its JSON body, the bearer token when given
 * (every route but the public ones needs one), and its answer read with the route's answer schema.
 */
export async function callRoute<K extends JsonRouteName>(
  fetchImpl: Fetch,
  baseUrl: string,
  name: K,
  call: RouteCall<K>,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
): Promise<RouteAnswer<K>> {
  const { params, query, body } = call as {
    params?: Params<K>;
    query?: Record<string, never>;
    body?: unknown;
  };
  const url = `${baseUrl}${routeUrl(name, params, query)}`;
  const raw = await requestJson(fetchImpl, url, { ...options, method: ROUTES[name].method, body });
  return readAnswer(name, raw);
}
