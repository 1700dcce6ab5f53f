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
/** What the worker did with the pushes it received since it started (the browser restarts idle workers). */
export interface WorkerPushCounts {
  /** System notifications of app messages. */
  shown: number;
  /** Messages a focused page showed in-app (foregroundHandled), so the worker showed none. */
  inApp: number;
  /** Pushes without the app's shape, shown as the generic notification. */
  generic: number;
  /** Repeated message ids, delivered no second time. */
  duplicates: number;
}
/** Worker → page: the answer to HEALTH_CHECK, the same timestamp and the worker's own counts. */
export interface HealthCheckAnswerMessage {
  type: 'HEALTH_CHECK';
  timestamp: number;
  pushes?: WorkerPushCounts;
  /** Malformed or unknown messages the worker ignored. */
  ignoredMessages?: number;
}
/** Page → worker: this page showed the push itself, the worker must not (spec §7). */
export interface ForegroundHandledMessage {
  type: 'foregroundHandled';
  messageId: string;
}
/**
 * Worker → pages: a push arrived; a page not yet handling it in the foreground processes it (spec §5). Every
 * open window gets it (unread counts, badge); `present` is true for at most one of them, the focused window the
 * worker chose to show it in-app. That page answers foregroundHandled, and the worker then shows no system
 * notification (except on iOS, where the worker always shows it and sends `present: false` to every page).
 */
export interface PushMsgMessage {
  type: 'PUSH_MSG';
  messageId: string;
  payload: PushPayload;
  present: boolean;
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
export type WorkerToPageMessage = MessagingEnabledMessage | HealthCheckAnswerMessage | PushMsgMessage;

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

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function parsePushCounts(value: unknown): WorkerPushCounts | null {
  if (!isRecord(value)) return null;
  const { shown, inApp, generic, duplicates } = value;
  return isCount(shown) && isCount(inApp) && isCount(generic) && isCount(duplicates)
    ? { shown, inApp, generic, duplicates }
    : null;
}

function parseHealthCheckAnswer(data: Record<string, unknown>): HealthCheckAnswerMessage | null {
  if (!isTimestamp(data.timestamp)) return null;
  const answer: HealthCheckAnswerMessage = { type: 'HEALTH_CHECK', timestamp: data.timestamp };
  // The counts are extra: a worker of an older build answers without them, and that is still an answer.
  const pushes = parsePushCounts(data.pushes);
  if (pushes) answer.pushes = pushes;
  if (isCount(data.ignoredMessages)) answer.ignoredMessages = data.ignoredMessages;
  return answer;
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

/** A worker → page message, or null for anything malformed or unknown. */
export function parseWorkerToPageMessage(data: unknown): WorkerToPageMessage | null {
  if (!isRecord(data)) return null;
  switch (data.type) {
    case 'MESSAGING_ENABLED':
      return typeof data.success === 'boolean' && isId(data.eventId)
        ? { type: 'MESSAGING_ENABLED', success: data.success, eventId: data.eventId }
        : null;
    case 'HEALTH_CHECK':
      return parseHealthCheckAnswer(data);
    case 'PUSH_MSG': {
      const payload = parsePushPayload(data.payload);
      return payload && payload.messageId === data.messageId && typeof data.present === 'boolean'
        ? { type: 'PUSH_MSG', messageId: payload.messageId, payload, present: data.present }
        : null;
    }
    default:
      return null;
  }
}

// Bounds for what a push may carry into a notification or the store; longer text is cut, not refused, so that a
// push is never silent (QUALITY.md: every push shows something).
const MAX_TITLE_LENGTH = 120;
const MAX_BODY_LENGTH = 500;
const MAX_DATA_KEYS = 20;
const MAX_DATA_VALUE_LENGTH = 1_000;
const DATA_KEY = /^[A-Za-z0-9_.-]{1,40}$/;

function text(value: unknown, max: number): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

/** A non-negative whole count from a number or a numeric string (FCM sends every data value as a string). */
function count(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/**
 * The app's push payload (ARCHITECTURE.md: `{messageId, data: {type, badge_count, channelId, ...},
 * notification: {title, body}}`), or null when the value is not one. spec §3: the id is `messageId` or FCM's
 * `fcmMessageId`. Data values are kept only when they are short strings or finite numbers.
 */
export function parsePushPayload(raw: unknown): PushPayload | null {
  if (!isRecord(raw)) return null;
  const messageId = isId(raw.messageId) ? raw.messageId : isId(raw.fcmMessageId) ? raw.fcmMessageId : null;
  if (messageId === null || !isRecord(raw.data) || !isRecord(raw.notification)) return null;
  const type = text(raw.data.type, 40);
  const title = text(raw.notification.title, MAX_TITLE_LENGTH);
  const body = text(raw.notification.body, MAX_BODY_LENGTH);
  if (!type || title === null || body === null) return null;
  const extra: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(raw.data).slice(0, MAX_DATA_KEYS)) {
    if (!DATA_KEY.test(key) || key === 'type' || key === 'badge_count' || key === 'channelId') continue;
    if (typeof value === 'string' && value.length <= MAX_DATA_VALUE_LENGTH) extra[key] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) extra[key] = value;
  }
  const data: PushPayload['data'] = { ...extra, type, badge_count: count(raw.data.badge_count) };
  if (typeof raw.data.channelId === 'string' && raw.data.channelId.length <= MAX_ID_LENGTH) {
    data.channelId = raw.data.channelId;
  }
  return { messageId, data, notification: { title, body } };
}
