// Every error the server answers is an ErrorBody (core/errors.ts) with a clear message and no stack trace:
// domain errors keep their status and reason (in `details`, as Firebase's callables carry it), framework errors (bad JSON, body too large, bad URL) become
// INVALID_ARGUMENT, and anything unexpected is logged here and answered INTERNAL "Something went wrong".
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_WORDS, HTTP_STATUS, QupmError } from '../core/errors';
import type { ErrorBody, ErrorReason, ErrorStatus } from '../core/errors';

export const SOMETHING_WENT_WRONG = ERROR_WORDS.somethingWentWrong;
const MAX_MESSAGE_LENGTH = 300;

export function errorBody(status: ErrorStatus, message: string, reason?: ErrorReason): ErrorBody {
  const clipped =
    message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
  return {
    error: reason ? { status, message: clipped, details: { reason } } : { status, message: clipped },
  };
}

// Fastify's own request errors, in words a person (or a client developer) can act on.
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large (at most 64 KB).',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty. Send JSON, or no Content-Type.',
  FST_ERR_CTP_INVALID_JSON_BODY:
    'The request body is not valid JSON, or holds a forbidden key such as __proto__.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_BAD_URL: 'The address is not a valid URL.',
  FST_ERR_MAX_PARAM_LENGTH: 'The address is too long.',
};

interface Answer {
  statusCode: number;
  body: ErrorBody;
  /** An error nobody planned for: logged with its stack, answered without it. */
  unexpected: boolean;
}

function statusOfHttpCode(code: number): ErrorStatus {
  if (code === 401) return 'UNAUTHENTICATED';
  if (code === 403) return 'PERMISSION_DENIED';
  if (code === 404) return 'NOT_FOUND';
  if (code === 429) return 'RESOURCE_EXHAUSTED';
  return 'INVALID_ARGUMENT';
}

export function toAnswer(error: unknown): Answer {
  if (error instanceof QupmError) {
    return {
      statusCode: HTTP_STATUS[error.status],
      body: errorBody(error.status, error.message, error.reason),
      unexpected: error.status === 'INTERNAL',
    };
  }
  const code = (error as { code?: unknown } | null)?.code;
  const httpCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof code === 'string' && FRAMEWORK_MESSAGES[code] !== undefined) {
    return {
      statusCode: 400,
      body: errorBody('INVALID_ARGUMENT', FRAMEWORK_MESSAGES[code]),
      unexpected: false,
    };
  }
  if (typeof httpCode === 'number' && httpCode >= 400 && httpCode < 500) {
    const status = statusOfHttpCode(httpCode);
    return {
      statusCode: HTTP_STATUS[status],
      body: errorBody(
        status,
        status === 'INVALID_ARGUMENT' ? ERROR_WORDS.requestNotValid : defaultMessage(status),
      ),
      unexpected: false,
    };
  }
  return { statusCode: 500, body: errorBody('INTERNAL', SOMETHING_WENT_WRONG), unexpected: true };
}

function defaultMessage(status: ErrorStatus): string {
  switch (status) {
    case 'UNAUTHENTICATED':
      return ERROR_WORDS.signIn;
    case 'PERMISSION_DENIED':
      return 'You do not have access to this.';
    case 'NOT_FOUND':
      return 'Not found.';
    case 'RESOURCE_EXHAUSTED':
      return ERROR_WORDS.tooManyRequests;
    default:
      return ERROR_WORDS.requestNotValid;
  }
}

type Report = (error: unknown, request: FastifyRequest) => void;

function sendAnswer(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  report?: Report,
): FastifyReply {
  const answer = toAnswer(error);
  if (answer.unexpected) report?.(error, request);
  const retryAfter = (error as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
  return reply.code(answer.statusCode).type('application/json; charset=utf-8').send(answer.body);
}

/** The `frameworkErrors` option of Fastify: malformed URLs and over-long params, before any route runs. */
export function frameworkErrors(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  void sendAnswer(error, request, reply);
}

/** Malformed HTTP (before Fastify has a request): a plain ErrorBody, then the connection is closed. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431
      ? 'The request headers are too large.'
      : status === 408
        ? 'The request took too long to arrive.'
        : 'The request is not valid HTTP.';
  const body = JSON.stringify(errorBody('INVALID_ARGUMENT', message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Answers every thrown error as an ErrorBody. Unexpected ones go to Fastify's logger when it is on, otherwise to
 * stderr, so an operator always sees them (with the stack the client never gets).
 */
export function installErrorHandler(app: FastifyInstance, loggerOn: boolean): void {
  const report: Report = loggerOn
    ? (error, request) => request.log.error({ err: error }, 'unexpected error')
    : (error, request) =>
        console.error(`QuPM: ${request.method} ${request.url.split('?')[0]} failed:`, error);
  app.setErrorHandler((error, request, reply) => sendAnswer(error, request, reply, report));
}
