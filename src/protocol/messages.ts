// The one message protocol between the page and the service worker (ARCHITECTURE.md "Wire formats"),
// imported by both sides. Every incoming message is parsed here; anything else is ignored by the receiver.

/** Page → worker: turn on messaging; answered by MESSAGING_ENABLED with the same eventId (spec §7). */
export interface EnableMessagingMessage {
  type: 'ENABLE_MESSAGING';
  eventId: string;
}
/** Worker → page: the answer to ENABLE_MESSAGING. */
export interface MessagingEnabledMessage {
  type: 'MESSAGING_ENABLED';
  success: boolean;
  eventId: string;
}
/** Page → worker, echoed back by the worker with the same timestamp. */
export interface HealthCheckMessage {
  type: 'HEALTH_CHECK';
  timestamp: number;
}
/** Page → worker: this page showed the push itself, the worker must not (spec §7). */
export interface ForegroundHandledMessage {
  type: 'foregroundHandled';
  messageId: string;
}
/** Worker → pages: a push arrived; a page not yet handling it in the foreground processes it (spec §5). */
export interface PushMsgMessage {
  type: 'PUSH_MSG';
  messageId: string;
  payload: PushPayload;
}
/** Page → waiting worker: activate now (the update banner's restart). */
export interface SkipWaitingMessage {
  type: 'SKIP_WAITING';
}

/** ARCHITECTURE.md: the push payload of both backends. */
export interface PushPayload {
  messageId: string;
  data: { type: string; badge_count: number; channelId?: string } & Record<string, string | number>;
  notification: { title: string; body: string };
}

export type PageToWorkerMessage =
  EnableMessagingMessage | HealthCheckMessage | ForegroundHandledMessage | SkipWaitingMessage;
export type WorkerToPageMessage = MessagingEnabledMessage | HealthCheckMessage | PushMsgMessage;

const MAX_ID_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A page → worker message, or null for anything malformed or unknown. */
export function parsePageToWorkerMessage(data: unknown): PageToWorkerMessage | null {
  if (!isRecord(data)) return null;
  switch (data.type) {
    case 'ENABLE_MESSAGING':
      return isId(data.eventId) ? { type: 'ENABLE_MESSAGING', eventId: data.eventId } : null;
    case 'HEALTH_CHECK':
      return isTimestamp(data.timestamp) ? { type: 'HEALTH_CHECK', timestamp: data.timestamp } : null;
    case 'foregroundHandled':
      return isId(data.messageId) ? { type: 'foregroundHandled', messageId: data.messageId } : null;
    case 'SKIP_WAITING':
      return { type: 'SKIP_WAITING' };
    default:
      return null;
  }
}
