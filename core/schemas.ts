// Validation of everything that crosses into a backend: request bodies, callable payloads, route params.
// Objects are strict (an unknown key, `__proto__` included, is refused), strings bounded, numbers finite.
import { z } from 'zod';
import { DOCUMENT_ID_PATTERN } from './ids';
import { EMAIL_PATTERN } from './email';
import { LINK_TOKEN_PATTERN } from './emailLinks';
import { isInvitationGrant } from './invitations';
import { CHANNEL_HANDLE_PATTERN } from './channels';
import { isReservedHandle } from './privateChannels';
import { DELIVERY_CHANNELS, DEVICE_ID_PATTERN, LIMITS, PLATFORMS, PUSH_TOKEN_PATTERN } from './limits';
import { parseCursor } from './messages';
import { isDiscountPercent } from './offers';
import { LEAVING_MESSAGES } from './leaving';
import { MESSAGE_RAW_MAX, MESSAGE_TEXT_MESSAGES, checkMessageText } from './messageText';
import type { MessageCursor } from './messages';

const trimmed = (max: number) => z.string().trim().min(1).max(max);

/** core/email.ts isEmail, in zod: normalized, bounded, EMAIL_PATTERN (zod's own default, named once in core). */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax)
  .pipe(z.email({ pattern: EMAIL_PATTERN }));
export const documentIdSchema = z.string().regex(DOCUMENT_ID_PATTERN, 'not a QuPM id');
export const channelHandleSchema = z
  .string()
  .min(LIMITS.channelIdMin)
  .max(LIMITS.channelIdMax)
  .regex(CHANNEL_HANDLE_PATTERN, 'lowercase letters, digits and single dashes');
export const pushTokenSchema = z
  .string()
  .min(LIMITS.pushTokenMin)
  .max(LIMITS.pushTokenMax)
  .regex(PUSH_TOKEN_PATTERN, 'not a push token');
export const deviceIdSchema = z
  .string()
  .min(1)
  .max(LIMITS.deviceIdMax)
  .regex(DEVICE_ID_PATTERN, 'not a device id');

export const signUpBody = z.strictObject({
  email: emailSchema,
  password: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax),
  displayName: trimmed(LIMITS.displayNameMax).optional(),
});
export const signInBody = z.strictObject({
  email: emailSchema,
  password: z.string().min(1).max(LIMITS.passwordMax),
});
export const refreshBody = z.strictObject({ refreshToken: z.string().min(1).max(512) });
/** issue #15 part 4: the current password (any, as sign-in takes it) and a new one under sign-up's policy. */
export const passwordChangeBody = z.strictObject({
  currentPassword: z.string().min(1).max(LIMITS.passwordMax),
  newPassword: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax),
});

// issue #15 parts 2–3: the token of a mailed link, and the bodies that carry it.
export const linkTokenSchema = z.string().regex(LINK_TOKEN_PATTERN, 'not a link QuPM sent');
export const verifyEmailBody = z.strictObject({ token: linkTokenSchema });
export const passwordResetBody = z.strictObject({ email: emailSchema });
export const emailChangeBody = z.strictObject({
  password: z.string().min(1).max(LIMITS.passwordMax),
  newEmail: emailSchema,
});
export const passwordResetConfirmBody = z.strictObject({
  token: linkTokenSchema,
  password: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax),
});

export const notificationSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  delivery: z.strictObject({
    channels: z
      .array(z.enum(DELIVERY_CHANNELS))
      .max(LIMITS.deliveryChannelsMax)
      .refine((list) => new Set(list).size === list.length, 'channels must not repeat'),
  }),
});

/** What a user may change on their own user document: nothing else (no role or balance field). */
export const profilePatchBody = z
  .strictObject({
    nickname: z.string().trim().max(LIMITS.nicknameMax).optional(),
    displayName: trimmed(LIMITS.displayNameMax).optional(),
    notificationSettings: notificationSettingsSchema.optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, 'nothing to change');

export const pushTokenCreateBody = z.strictObject({
  token: pushTokenSchema,
  deviceId: deviceIdSchema,
  platform: z.enum(PLATFORMS),
  userAgent: z.string().max(LIMITS.userAgentMax),
});

/** A message's text: bounded before trimming, then core/messageText.ts decides (trimmed, 1 to 4,000 characters). */
export const messageTextSchema = z
  .string()
  .max(MESSAGE_RAW_MAX)
  .transform((raw, ctx) => {
    const checked = checkMessageText(raw);
    if (checked.ok) return checked.text;
    ctx.addIssue({ code: 'custom', message: MESSAGE_TEXT_MESSAGES[checked.problem] });
    return z.NEVER;
  });

/**
 * POST /api/channels/:id/messages. `id` is the client's (the send's idempotency key); without one the server
 * names the message. Text, an attachment, or both.
 */
export const messageCreateBody = z
  .strictObject({
    id: documentIdSchema.optional(),
    text: z.string().max(MESSAGE_RAW_MAX).default(''),
    /** An upload of the caller's in this channel (POST /api/channels/:id/attachments), not sent yet. */
    attachmentId: documentIdSchema.optional(),
  })
  .transform((body, ctx) => {
    // core/messageText.ts: empty text is a message only when it carries a file.
    const checked = checkMessageText(body.text, { withAttachment: body.attachmentId !== undefined });
    if (checked.ok) return { ...body, text: checked.text };
    ctx.addIssue({ code: 'custom', path: ['text'], message: MESSAGE_TEXT_MESSAGES[checked.problem] });
    return z.NEVER;
  });

/** PATCH /api/channels/:id/messages/:messageId (issue #13): the message's new text, as a send's. */
export const messagePatchBody = z.strictObject({ text: messageTextSchema });

/** POST /api/channels/:id/read: read up to and including this message of the channel. */
export const markReadBody = z.strictObject({ messageId: documentIdSchema });

/** PUT /api/channels/:id/mute and mute_channel: which of core/mutes.ts's durations is checked by core. */
export const muteBody = z.strictObject({ duration: z.unknown() });

export const channelCreateBody = z.strictObject({
  channelId: channelHandleSchema.refine(
    (handle) => !isReservedHandle(handle),
    'addresses starting with "private-" are kept for private conversations',
  ),
  title: trimmed(LIMITS.channelTitleMax),
  description: z.string().trim().max(LIMITS.channelDescriptionMax).default(''),
});

export const channelPatchBody = z
  .strictObject({
    title: trimmed(LIMITS.channelTitleMax).optional(),
    description: z.string().trim().max(LIMITS.channelDescriptionMax).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, 'nothing to change');

const futureTime = z.number().int().positive();
/**
 * A number that core's predicate `accepts` (the one rule the forms use too), refused in words that name what it
 * missed: `whole` when it is not a whole number, else the bound it crossed.
 */
function wholeNumber(
  accepts: (value: number) => boolean,
  bounds: { min: number; max: number; whole: string; unit: string },
) {
  return z.number().superRefine((value, ctx) => {
    if (accepts(value)) return;
    const { min, max, whole, unit } = bounds;
    const message = !Number.isSafeInteger(value)
      ? whole
      : value < min
        ? `at least ${min}${unit}`
        : `at most ${max}${unit}`;
    ctx.addIssue({ code: 'custom', message });
  });
}

const grant = wholeNumber(isInvitationGrant, {
  min: 0,
  max: LIMITS.invitationGrantMax,
  whole: 'a whole number',
  unit: '',
});

/** expiresAt is checked against the server's clock where it is used: after now, at most a year ahead. */
export const invitationCreateBody = z.strictObject({
  channelId: documentIdSchema,
  inviteeEmail: emailSchema.optional(),
  passes: grant,
  credits: grant,
  expiresAt: futureTime,
  privateConsultation: z.boolean().optional(),
});

/** POST /api/private-channels and the open_private_channel callable (core/privateChannels.ts). */
export const privateChannelCreateBody = z.strictObject({
  // A user id: the embedded server's are document ids, Firebase Auth's are up to 128 characters.
  withUid: z.string().regex(/^[A-Za-z0-9]{1,128}$/, 'not a user id'),
  viaChannelId: documentIdSchema,
});

export const offerCreateBody = z.strictObject({
  channelId: documentIdSchema,
  userId: documentIdSchema,
  discountPercent: wholeNumber(isDiscountPercent, {
    min: LIMITS.discountMin,
    max: LIMITS.discountMax,
    whole: 'a whole percent',
    unit: ' %',
  }),
  source: trimmed(LIMITS.offerSourceMax).default('Consultant offer'),
  expiresAt: futureTime,
});

export const roleBody = z.strictObject({ isOwner: z.boolean() });

/** A page cursor on the wire (core/messages.ts encodeCursor): `<createdAt>` or `<createdAt>_<id>`. */
export const messageCursorSchema = z.string().transform((value, ctx): MessageCursor => {
  const cursor = parseCursor(value);
  if (cursor === null) {
    ctx.addIssue({ code: 'custom', message: 'not a message cursor' });
    return z.NEVER;
  }
  return cursor;
});

/** GET /api/channels/:id/messages: at most one of `before` and `after`. */
export const messagesQuery = z
  .strictObject({
    before: messageCursorSchema.optional(),
    after: messageCursorSchema.optional(),
    /** Issue #13: the messages changed (edited, deleted) after this (version, id), in that order. */
    changedAfter: messageCursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(LIMITS.messagesPageMax).optional(),
  })
  .refine(
    (query) => [query.before, query.after, query.changedAfter].filter((c) => c !== undefined).length <= 1,
    'before or after, not both, and changedAfter alone',
  );

export const channelsQuery = z.union([
  z.strictObject({ mine: z.literal('true') }),
  z.strictObject({ channelId: channelHandleSchema, limit: z.literal('1').optional() }),
]);

export const tokensQuery = z.strictObject({
  token: pushTokenSchema.optional(),
  status: z.literal('active').optional(),
});

/** The callables of spec §7, by name, with their payloads (Firebase's `{"data": ...}` envelope). */
export const callablePayloads = {
  check_channel_permissions: z.strictObject({
    channel_id: documentIdSchema,
    // spec §7: optional; never trusted (ARCHITECTURE.md), only checked for type.
    channel_owner_id: z.string().max(128).optional(),
  }),
  get_user_active_offers: z.union([z.null(), z.undefined(), z.strictObject({})]),
  clear_pending_notifications: z.strictObject({ userId: z.string().min(1).max(128) }),
} as const;
export type CallableName = keyof typeof callablePayloads;

export const callableEnvelope = z.strictObject({ data: z.unknown() });

/** A short, human message for a zod failure: the first issue with its path. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'request';
  return `${where}: ${issue.message}`;
}

/** GET /api/stream?ticket=…: the single-use ticket from POST /api/stream/ticket. */
export const streamQuery = z.strictObject({ ticket: z.string().min(1).max(128) });

/**
 * Callables only the Firebase backend has: the invitation calls rules alone cannot guard (single-use, bound to
 * the invitee). The embedded server answers the same operations at /api/invitations/:id (core/wire.ts).
 */
export const invitationCallablePayloads = {
  get_invitation: z.strictObject({ invitationId: documentIdSchema }),
  accept_invitation: z.strictObject({ invitationId: documentIdSchema }),
  activate_invitation: z.strictObject({ invitationId: documentIdSchema }),
  /** The invitations waiting for the caller (GET /api/invitations on the embedded server). */
  list_my_invitations: z.union([z.null(), z.undefined(), z.strictObject({})]),
} as const;
export type InvitationCallableName = keyof typeof invitationCallablePayloads;

/**
 * The one callable that needs no session (issue #13 part 8): an invitation's preview for whoever holds its link,
 * signed in or not (GET /api/invitations/:id/preview on the embedded server).
 */
export const publicCallablePayloads = {
  preview_invitation: z.strictObject({ invitationId: documentIdSchema }),
} as const;
export type PublicCallableName = keyof typeof publicCallablePayloads;

/**
 * The token callable of the Firebase backend (src/backend/firebase/pushTokens.ts addToken): a device's push token
 * saved for `userId`, the caller. The embedded server answers the same at POST /api/users/:uid/tokens.
 */
export const tokenCallablePayloads = {
  save_push_token: z.strictObject({ userId: z.string().min(1).max(128), ...pushTokenCreateBody.shape }),
} as const;
export type TokenCallableName = keyof typeof tokenCallablePayloads;

const noPayload = z.union([z.null(), z.undefined(), z.strictObject({})]);
const channelRef = z.strictObject({ channelId: documentIdSchema });

/**
 * issue #15 part 5 on the Firebase backend (src/backend/firebase/sessions.ts): Firebase Auth cannot list or end
 * one session, so revoke_sessions ends every one of the caller's (Admin SDK revokeRefreshTokens).
 */
export const sessionCallablePayloads = { revoke_sessions: noPayload } as const;
export type SessionCallableName = keyof typeof sessionCallablePayloads;

/**
 * Firebase Auth ends an account's sessions by itself on a password reset or change (src/backend/firebase/auth.ts,
 * sessions.ts); record_revocation, open to anyone, has functions/ record it for the rules. The embedded server
 * ends them in the same transaction as the change.
 */
export const publicSessionCallablePayloads = {
  record_revocation: z.strictObject({ email: emailSchema }),
} as const;

/**
 * Muting a channel on the Firebase backend (issue #13 part 6; src/backend/firebase/mutes.ts): written by functions
 * only, with their clock, for a channel the caller is in. The embedded server answers the same at
 * PUT/DELETE /api/channels/:id/mute; the duration is core/mutes.ts's to check (its words for a person).
 */
export const muteCallablePayloads = {
  mute_channel: z.strictObject({ channelId: documentIdSchema, ...muteBody.shape }),
  unmute_channel: channelRef,
} as const;
export type MuteCallableName = keyof typeof muteCallablePayloads;

/**
 * Issue #6's callables on the Firebase backend (src/backend/firebase/callables.ts PRODUCT_CALLABLES), with the
 * payloads the Firebase adapter sends. The embedded server answers the same operations as routes (core/wire.ts);
 * the bodies are the same schemas.
 */
export const productCallablePayloads = {
  get_channel_overview: noPayload,
  create_channel: channelCreateBody,
  update_channel: z
    .strictObject({
      id: documentIdSchema,
      title: trimmed(LIMITS.channelTitleMax).optional(),
      description: z.string().trim().max(LIMITS.channelDescriptionMax).optional(),
    })
    .refine((patch) => patch.title !== undefined || patch.description !== undefined, 'nothing to change'),
  list_channel_members: channelRef,
  mark_channel_read: z.strictObject({ channelId: documentIdSchema, messageId: documentIdSchema }),
  create_invitation: invitationCreateBody,
  list_channel_invitations: channelRef,
  issue_offer: offerCreateBody,
  list_issued_offers: noPayload,
  admin_list_users: noPayload,
  admin_set_consultant: z.strictObject({ uid: documentIdSchema, isOwner: z.boolean() }),
  admin_list_channels: noPayload,
  open_private_channel: privateChannelCreateBody,
} as const;
export type ProductCallableName = keyof typeof productCallablePayloads;

/**
 * Issue #15 part 7, leaving: `DELETE /api/users/:uid {password}` on the embedded server. On Firebase the client
 * proves the password by re-authenticating, and the callables take no payload (core/leaving.ts).
 */
export const accountDeleteBody = z.strictObject({
  password: z.string().min(1, LEAVING_MESSAGES.passwordMissing).max(LIMITS.passwordMax),
});
export const leavingCallablePayloads = {
  export_my_data: noPayload,
  delete_my_account: noPayload,
} as const;
export type LeavingCallableName = keyof typeof leavingCallablePayloads;
