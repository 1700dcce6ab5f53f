// What a push notification for a new channel message says, for both backends (ARCHITECTURE.md "Wire formats":
// `{messageId, data: {type, badge_count, channelId}, notification: {title, body}}`): who wrote, the start of
// what they wrote, the recipient's badge count (spec §5), and the path of this origin a click opens.
import { messageSummary } from './messageText';
import type { AttachmentKind } from './attachments';
import { channelPath } from './paths';

/** `data.type` of every push QuPM sends, by what caused it. */
export const PUSH_TYPES = { message: 'message' } as const;
export type PushType = (typeof PUSH_TYPES)[keyof typeof PUSH_TYPES];

/** A notification shows a line or two: longer message text is cut to this many characters. */
export const PUSH_BODY_MAX = 120;
/** The sender's name as a title; longer names are cut. */
export const PUSH_TITLE_MAX = 60;

function cut(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1).trimEnd()}…` : oneLine;
}

export interface MessagePush {
  /**
   * `messageId`: the chat message's id, so that a page which has shown the message in-app from live
   * data already knows the push is the same message (FCM gives the push an id of its own).
   */
  data: { type: PushType; badge_count: number; channelId: string; messageId?: string };
  notification: { title: string; body: string };
  /** A path of this origin; each backend makes it absolute where its push service needs that. */
  path: string;
}

/**
 * The push one recipient gets for a message: their own badge count, the sender's name, the text's start (or
 * "Sent a photo" / "Sent a document" for a file without text).
 */
export function messagePush(input: {
  channelId: string;
  messageId?: string;
  senderName: string;
  text: string;
  attachment?: { kind: AttachmentKind };
  badgeCount: number;
}): MessagePush {
  return {
    data: {
      type: PUSH_TYPES.message,
      badge_count: Math.max(0, Math.trunc(input.badgeCount)),
      channelId: input.channelId,
      ...(input.messageId !== undefined ? { messageId: input.messageId } : {}),
    },
    notification: {
      title: cut(input.senderName, PUSH_TITLE_MAX) || 'QuPM',
      body: cut(messageSummary(input), PUSH_BODY_MAX),
    },
    path: channelPath(input.channelId),
  };
}
