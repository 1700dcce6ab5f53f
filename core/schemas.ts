// Validation of everything that crosses into a backend: request bodies, callable payloads, route params.
// Objects are strict (an unknown key, `__proto__` included, is refused), strings bounded, numbers finite.
import { z } from 'zod';
import { DOCUMENT_ID_PATTERN, USER_ID_PATTERN } from './ids';
import { EMAIL_PATTERN } from './email';
import { LINK_TOKEN_PATTERN } from './emailLinks';
import { isInvitationGrant } from './invitations';
import { CHANNEL_HANDLE_PATTERN } from './channels';
import { isReservedHandle } from './privateChannels';
import { DELIVERY_CHANNELS, DEVICE_ID_PATTERN, LIMITS, PLATFORMS, PUSH_TOKEN_PATTERN } from './limits';
import { parseCursor } from './messages';
import { isDiscountPercent } from './offers';
import { BOOKING_WINDOW, canonicalTimeZone, HOURS_LIMITS, SLOT_STEP_MS } from './availability';
import { isServiceDuration, isServicePrice, SERVICE_LIMITS } from './catalog';
import { GRANT_LIMITS, isGrantAmount } from './ledger';
import { LEAVING_MESSAGES } from './leaving';
import { MESSAGE_RAW_MAX, MESSAGE_TEXT_MESSAGES, checkMessageText } from './messageText';
import type { MessageCursor } from './messages';
import { SEARCH_BACKFILL_BATCH, SEARCH_PAGE_MAX, SEARCH_TEXT_MAX } from './search';

const trimmed = (max: number) => z.string().trim().min(1).max(max);

/** core/email.ts isEmail, in zod: normalized, bounded, EMAIL_PATTERN (zod's own default, named once in core). */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax)
  .pipe(z.email({ pattern: EMAIL_PATTERN }));
export const documentIdSchema = z.string().regex(DOCUMENT_ID_PATTERN, 'not a QuPM id');
/** A person named in a payload (an offer's recipient, an admin's subject): a QuPM id or a Firebase Auth uid. */
export const userIdSchema = z.string().regex(USER_ID_PATTERN, 'not a user id');
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
/** The current password (any, as sign-in takes it) and a new one under sign-up's policy. */
export const passwordChangeBody = z.strictObject({
  currentPassword: z.string().min(1).max(LIMITS.passwordMax),
  newPassword: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax),
});

// The token of a mailed link, and the bodies that carry it.
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
    /**
     * Uploads of the caller's in this channel (POST /api/channels/:id/attachments), not sent yet, in order; more
     * than ATTACHMENT_COUNT_MAX is refused by server/services/attachments.ts claimAttachments, in its words.
     */
    attachmentIds: z.array(documentIdSchema).min(1).optional(),
    /** One upload: what a client from before several files (its outbox on a device) still sends. */
    attachmentId: documentIdSchema.optional(),
    /** The earlier message of this channel it answers (core/replies.ts: the server quotes the stored one). */
    replyTo: documentIdSchema.optional(),
  })
  .transform((body, ctx) => {
    if (body.attachmentId !== undefined && body.attachmentIds !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['attachmentId'], message: 'Send attachmentIds alone.' });
      return z.NEVER;
    }
    const { attachmentId, attachmentIds: listed, ...rest } = body;
    const attachmentIds = attachmentId !== undefined ? [attachmentId] : listed;
    // core/messageText.ts: empty text is a message only when it carries a file.
    const checked = checkMessageText(body.text, { withAttachment: attachmentIds !== undefined });
    if (checked.ok) return { ...rest, text: checked.text, ...(attachmentIds ? { attachmentIds } : {}) };
    ctx.addIssue({ code: 'custom', path: ['text'], message: MESSAGE_TEXT_MESSAGES[checked.problem] });
    return z.NEVER;
  });

/** PATCH /api/channels/:id/messages/:messageId: the message's new text, as a send's. */
export const messagePatchBody = z.strictObject({ text: messageTextSchema });

/** PUT /api/channels/:id/messages/:messageId/reaction: one of core/reactions.ts's set, or null (checked by core). */
export const reactionBody = z.strictObject({ emoji: z.unknown() });

/** POST /api/channels/:id/read: read up to and including this message of the channel. */
export const markReadBody = z.strictObject({ messageId: documentIdSchema });

/** PUT /api/receipts/settings and set_read_receipts: whether the caller shares read receipts (core/receipts.ts). */
export const receiptSettingsBody = z.strictObject({ enabled: z.boolean() });

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
/** A user id: the embedded server's are document ids, Firebase Auth's are up to 128 characters. */
export const privateChannelCreateBody = z.strictObject({
  withUid: userIdSchema,
  viaChannelId: documentIdSchema,
});

export const offerCreateBody = z.strictObject({
  channelId: documentIdSchema,
  userId: userIdSchema,
  /**
   * The consultant's active service the offer is for (docs/decisions/practice.md): a new offer always names one, so
   * it leads to a booking. Offers stored before it did still read, and count for any of the consultant's services.
   */
  serviceId: z
    .string({
      error: (issue) => (issue.input === undefined ? 'choose the service this offer is for' : undefined),
    })
    .regex(DOCUMENT_ID_PATTERN, 'not a QuPM id'),
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
    /** The messages changed (edited, deleted) after this (version, id), in that order. */
    changedAfter: messageCursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(LIMITS.messagesPageMax).optional(),
  })
  .refine(
    (query) => [query.before, query.after, query.changedAfter].filter((c) => c !== undefined).length <= 1,
    'before or after, not both, and changedAfter alone',
  );

/**
 * POST /api/search (core/search.ts): the words to look for (checked by planSearch, with words for the person;
 * a text far past any search is refused here), one channel or all of the caller's, the page after `cursor`.
 */
export const searchBody = z.strictObject({
  text: z.string().max(SEARCH_TEXT_MAX * 100),
  channelId: documentIdSchema.optional(),
  cursor: z.string().max(64).optional(),
  limit: z.number().int().min(1).max(SEARCH_PAGE_MAX).optional(),
});

/** An admin's step of the search backfill: after the path the last step answered, up to `limit` messages. */
export const searchBackfillBody = z.strictObject({
  after: z
    .string()
    .max(200)
    .regex(/^channels\/[A-Za-z0-9]{1,64}\/messages\/[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  limit: z.number().int().min(1).max(SEARCH_BACKFILL_BATCH).optional(),
});

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

// Path params of core/wire.ts's routes.
export const uidParams = z.strictObject({ uid: documentIdSchema });
export const idParams = z.strictObject({ id: documentIdSchema });
export const photoParams = z.strictObject({ photoId: documentIdSchema });
export const messageParams = z.strictObject({ id: documentIdSchema, messageId: documentIdSchema });
export const tokenParams = z.strictObject({ uid: documentIdSchema, id: documentIdSchema });
export const fileParams = z.strictObject({ id: documentIdSchema, attachmentId: documentIdSchema });
export const callableParams = z.strictObject({ name: z.string().max(64) });

/** POST /api/channels/:id/attachments?name=…: the file's name (core/attachments.ts checks it with the bytes). */
export const uploadQuery = z.strictObject({ name: z.string().max(1000) });

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
 * The one callable that needs no session: an invitation's preview for whoever holds its link,
 * signed in or not (GET /api/invitations/:id/preview on the embedded server).
 */
export const publicCallablePayloads = {
  preview_invitation: z.strictObject({ invitationId: documentIdSchema }),
} as const;

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
 * On the Firebase backend (src/backend/firebase/sessions.ts): Firebase Auth cannot list or end
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
 * Muting a channel on the Firebase backend (src/backend/firebase/mutes.ts): written by functions
 * only, with their clock, for a channel the caller is in. The embedded server answers the same at
 * PUT/DELETE /api/channels/:id/mute; the duration is core/mutes.ts's to check (its words for a person).
 */
export const muteCallablePayloads = {
  mute_channel: z.strictObject({ channelId: documentIdSchema, ...muteBody.shape }),
  unmute_channel: channelRef,
} as const;
export type MuteCallableName = keyof typeof muteCallablePayloads;

/**
 * Read receipts on the Firebase backend (src/backend/firebase/receipts.ts): a delivered mark moves, and a person
 * turns sharing receipts on or off. The embedded server answers the same at POST /api/channels/:id/delivered and
 * PUT /api/receipts/settings, with the same bodies.
 */
export const receiptCallablePayloads = {
  mark_channel_delivered: z.strictObject({ channelId: documentIdSchema, ...markReadBody.shape }),
  set_read_receipts: receiptSettingsBody,
} as const;
export type ReceiptCallableName = keyof typeof receiptCallablePayloads;

/**
 * The product's callables on the Firebase backend (src/backend/firebase/callables.ts PRODUCT_CALLABLES), with the
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
  admin_set_consultant: z.strictObject({ uid: userIdSchema, isOwner: z.boolean() }),
  admin_list_channels: noPayload,
  open_private_channel: privateChannelCreateBody,
} as const;
export type ProductCallableName = keyof typeof productCallablePayloads;

/**
 * Leaving: `DELETE /api/users/:uid {password}` on the embedded server. On Firebase the client
 * proves the password by re-authenticating, and the callables take no payload (core/leaving.ts).
 */
export const accountDeleteBody = z.strictObject({
  password: z.string().min(1, LEAVING_MESSAGES.passwordMissing).max(LIMITS.passwordMax),
});
export const leavingCallablePayloads = {
  export_my_data: noPayload,
  delete_my_account: noPayload,
} as const;

// ---- the consulting practice (core/catalog.ts, availability.ts, bookings.ts, ledger.ts, housekeeping.ts) ------

/**
 * The id a client gives a change so that a repeat changes nothing (core/operations.ts): a document id it makes
 * itself (core/ids.ts newDocumentId), as a message's.
 */
export const operationIdSchema = documentIdSchema;

/** An IANA time zone, in its canonical spelling (core/availability.ts canonicalTimeZone). */
export const timeZoneSchema = z
  .string()
  .max(HOURS_LIMITS.timeZoneMax)
  .transform((zone, ctx) => {
    const canonical = canonicalTimeZone(zone);
    if (canonical !== null) return canonical;
    ctx.addIssue({
      code: 'custom',
      message: 'not a time zone this system knows (an IANA name such as Europe/Paris)',
    });
    return z.NEVER;
  });

const serviceTitle = trimmed(SERVICE_LIMITS.titleMax);
const serviceDescription = z.string().trim().max(SERVICE_LIMITS.descriptionMax);
const serviceDuration = z.number().superRefine((value, ctx) => {
  if (isServiceDuration(value)) return;
  const { durationMin: min, durationMax: max, durationStep: step } = SERVICE_LIMITS;
  const message = !Number.isSafeInteger(value)
    ? 'whole minutes'
    : value < min
      ? `at least ${min} minutes`
      : value > max
        ? `at most ${max} minutes`
        : `in steps of ${step} minutes`;
  ctx.addIssue({ code: 'custom', message });
});
const servicePrice = wholeNumber(isServicePrice, {
  min: 0,
  max: SERVICE_LIMITS.priceMax,
  whole: 'a whole number of credits',
  unit: ' credits',
});

export const serviceCreateBody = z.strictObject({
  title: serviceTitle,
  description: serviceDescription.default(''),
  durationMinutes: serviceDuration,
  priceCredits: servicePrice,
  operationId: operationIdSchema,
});

export const servicePatchBody = z
  .strictObject({
    title: serviceTitle.optional(),
    description: serviceDescription.optional(),
    durationMinutes: serviceDuration.optional(),
    priceCredits: servicePrice.optional(),
    /** 'archived' archives it, 'active' restores it. */
    status: z.enum(['active', 'archived']).optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'nothing to change');

const clockSchema = z.string().max(5);
/** A consultant's weekly hours in their time zone; core/availability.ts normalizeHours checks the intervals. */
export const availabilityBody = z.strictObject({
  timeZone: timeZoneSchema,
  hours: z
    .array(z.strictObject({ day: z.number().int().min(1).max(7), start: clockSchema, end: clockSchema }))
    .max(HOURS_LIMITS.intervalsMax),
});

const instant = z.number().int().positive().max(8.64e15);
/** A session's start: on the 15-minute grid (core/availability.ts SLOT_STEP_MS). */
const slotStart = instant.refine((value) => value % SLOT_STEP_MS === 0, 'sessions start on the quarter hour');

/** The free times of a service between `from` and `to` (at most 31 days apart). */
const freeSlotsShape = { serviceId: documentIdSchema, from: instant, to: instant };
const freeSlotsSpan = (query: { from: number; to: number }): boolean => query.to > query.from;
const freeSlotsWithin = (query: { from: number; to: number }): boolean =>
  query.to - query.from <= BOOKING_WINDOW.listMaxMs;
export const freeSlotsQuery = z
  .strictObject(freeSlotsShape)
  .refine(freeSlotsSpan, 'to: after from')
  .refine(freeSlotsWithin, 'to: at most 31 days after from');
/** GET /api/free-slots: the same, its times read from the query string's digits. */
const queryInstant = z.coerce.number().pipe(instant);
export const freeSlotsRouteQuery = z
  .strictObject({ ...freeSlotsShape, from: queryInstant, to: queryInstant })
  .refine(freeSlotsSpan, 'to: after from')
  .refine(freeSlotsWithin, 'to: at most 31 days after from');

export const bookingRequestBody = z.strictObject({
  serviceId: documentIdSchema,
  startsAt: slotStart,
  paymentMethod: z.enum(['credits', 'pass']),
  offerId: documentIdSchema.optional(),
  /** The price in credits the client was shown: compared with the real one, never used (core/pricing.ts). */
  expectedCredits: z.number().int().min(0).max(SERVICE_LIMITS.priceMax).optional(),
  clientTimeZone: timeZoneSchema,
  operationId: operationIdSchema,
});

/** confirm, decline, accept or decline a proposal, cancel, mark done, refund. */
export const bookingActionBody = z.strictObject({
  bookingId: documentIdSchema,
  operationId: operationIdSchema,
});

export const bookingProposeBody = z.strictObject({
  bookingId: documentIdSchema,
  startsAt: slotStart,
  operationId: operationIdSchema,
});

const grantAmount = wholeNumber(isGrantAmount, {
  min: 0,
  max: GRANT_LIMITS.max,
  whole: 'a whole number',
  unit: '',
});
/** A consultant's grant to a client, or an admin's to anyone (core/ledger.ts assertCanGrant). */
export const grantBody = z.strictObject({
  userId: userIdSchema,
  credits: grantAmount.default(0),
  passes: grantAmount.default(0),
  note: z.string().trim().max(GRANT_LIMITS.noteMax).optional(),
  operationId: operationIdSchema,
});

export const channelMemberBody = z.strictObject({ channelId: documentIdSchema, userId: userIdSchema });
export const handOverBody = z.strictObject({ channelId: documentIdSchema, toUid: userIdSchema });
const bookingRef = z.strictObject({ bookingId: documentIdSchema });

// The embedded server's practice routes (core/wire.ts) name the booking, channel or member in the path; their
// bodies are the callables' without it.
/** A step on a booking (POST /api/bookings/:id/confirm and the like): its operation id. */
export const operationBody = z.strictObject({ operationId: operationIdSchema });
/** POST /api/bookings/:id/propose. */
export const bookingTimeBody = bookingProposeBody.omit({ bookingId: true });
/** POST /api/channels/:id/hand-over. */
export const handOverRouteBody = handOverBody.omit({ channelId: true });
/** DELETE /api/channels/:id/members/:uid. */
export const memberParams = z.strictObject({ id: documentIdSchema, uid: userIdSchema });

/**
 * The practice's callables on the Firebase backend (functions/src/handlers/practice.ts): the same operations the
 * embedded server's services answer (server/services/catalog.ts, bookings.ts, ledger.ts, housekeeping.ts), with
 * the same bodies.
 */
export const practiceCallablePayloads = {
  list_services: z.strictObject({ consultantId: userIdSchema }),
  create_service: serviceCreateBody,
  update_service: z.strictObject({ serviceId: documentIdSchema, patch: servicePatchBody }),
  get_availability: z.strictObject({ consultantId: userIdSchema }),
  set_availability: availabilityBody,
  list_free_slots: freeSlotsQuery,
  request_booking: bookingRequestBody,
  confirm_booking: bookingActionBody,
  decline_booking: bookingActionBody,
  propose_booking_time: bookingProposeBody,
  accept_proposed_time: bookingActionBody,
  decline_proposed_time: bookingActionBody,
  cancel_booking: bookingActionBody,
  complete_booking: bookingActionBody,
  refund_booking: bookingActionBody,
  get_booking: bookingRef,
  list_my_bookings: noPayload,
  grant_balance: grantBody,
  list_my_ledger: noPayload,
  get_earnings: noPayload,
  list_my_offers: noPayload,
  withdraw_offer: z.strictObject({ offerId: documentIdSchema }),
  describe_channel_removal: channelRef,
  archive_channel: channelRef,
  unarchive_channel: channelRef,
  delete_channel: channelRef,
  remove_member: channelMemberBody,
  revoke_invitation: z.strictObject({ invitationId: documentIdSchema }),
  hand_over_channel: handOverBody,
} as const;
export type PracticeCallableName = keyof typeof practiceCallablePayloads;
