// The page's half of the service-worker protocol (src/protocol): requests to the active worker travel over a
// MessageChannel (through the page's worker owner, src/platform/serviceWorker.ts) and every answer is parsed
// before it is believed. A worker that does not answer within spec §9's 5 s is reported as
// 'SW communication timeout' (spec §8).
import { call, delay, race } from 'redux-saga/effects';
import { postToActiveWorker, ServiceWorkerProtocolError } from '@/platform/serviceWorker';
import { parseWorkerToPageMessage } from '@/protocol/messages';
import type { PageToWorkerMessage, WorkerToPageMessage } from '@/protocol/messages';
import { PUSH_FAILURES } from '@/store/pushSlice';
import { SW_MESSAGE_TIMEOUT_MS } from '@/timings';

/** spec §8. */
export const SW_COMMUNICATION_TIMEOUT = PUSH_FAILURES.swTimeout;

let eventCounter = 0;

/** An id for one request, unique within the page (the worker echoes it back). */
export function newEventId(now: number = Date.now()): string {
  eventCounter += 1;
  return `${now.toString(36)}-${eventCounter.toString(36)}`;
}

/**
 * Sends `message` and waits for an answer of `expected` type, at most spec §9's 5 s. Throws
 * 'SW communication timeout' when none comes in time, and a protocol error for an answer of the wrong shape.
 */
export function* requestFromWorker<T extends WorkerToPageMessage['type']>(
  message: PageToWorkerMessage,
  expected: T,
) {
  const { answer } = (yield race({
    answer: call(postToActiveWorker, message),
    timeout: call(delayMs, SW_MESSAGE_TIMEOUT_MS),
  })) as { answer?: unknown; timeout?: true };
  if (answer === undefined) throw new ServiceWorkerProtocolError(SW_COMMUNICATION_TIMEOUT);
  const parsed = parseWorkerToPageMessage(answer);
  if (parsed === null || parsed.type !== expected) {
    throw new ServiceWorkerProtocolError('The service worker sent an answer QuPM does not understand');
  }
  return parsed as Extract<WorkerToPageMessage, { type: T }>;
}

/** A `delay` wrapped in a saga, so tests can provide the timeout branch by matching on it. */
export function* delayMs(ms: number) {
  yield delay(ms);
  return true;
}

/**
 * spec §4, §7: ENABLE_MESSAGING {eventId} → MESSAGING_ENABLED {success, eventId}. Resolves with `success`;
 * an answer for another request is a protocol error.
 */
export function* enableServiceWorkerMessaging() {
  const eventId: string = yield call(newEventId);
  const answer: Extract<WorkerToPageMessage, { type: 'MESSAGING_ENABLED' }> = yield call(
    requestFromWorker,
    { type: 'ENABLE_MESSAGING', eventId },
    'MESSAGING_ENABLED',
  );
  if (answer.eventId !== eventId) {
    throw new ServiceWorkerProtocolError('The service worker answered another request');
  }
  return answer.success;
}
