// What the embedded server answers, as schemas (core/wire.ts names one for each route). The server serializes
// its answers from them (fast-json-stringify, server/typeProvider.ts) and the local adapter parses every answer
// with them, so an answer the client cannot read is a clear error, never a cast. Written with zod/mini: these
// ship in the local adapter's chunk, where the classic API (and its locales) would weigh some 90 KB gzipped;
// the request schemas of core/schemas.ts stay classic and server-side.
import * as z from 'zod/mini';
import { DOCUMENT_TYPES, IMAGE_TYPES, toAttachment, toAttachmentList } from './attachments';
import type { Attachment, AttachmentType } from './attachments';
import { INVITATION_STATUSES, OFFER_STATUSES } from './documents';
import { DOCUMENT_ID_PATTERN } from './ids';
import { REACTIONS } from './reactions';
import { REPLY_SNIPPET_MAX } from './replies';
import type { InvitationPreview } from './invitations';
import type { AccountExport, ExportedDevice, ExportedMessage } from './leaving';
import { ACCOUNT_EXPORT_FORMAT, ACCOUNT_EXPORT_VERSION } from './leaving';
import { DELIVERY_CHANNELS, PLATFORMS } from './limits';
import type {
  AdminChannel,
  AdminUser,
  AuthUser,
  Channel,
  ChannelMember,
  ChannelMute,
  ChannelOverview,
  ChannelPermissions,
  ChatMessage,
  Invitation,
  InvitationStatus,
  IssuedOffer,
  NotificationSettings,
  Offer,
  PushTokenDoc,
  SignedInSession,
  UserDoc,
  Availability,
  Balance,
  Booking,
  LedgerEntry,
  MessageCard,
  Service,
  Slot,
} from './model';
import type { ChannelContents } from './housekeeping';
import type { Earnings } from './ledger';
import type { ReceivedOffer, StoredOffer } from './offers';
import { isMuteEnd } from './mutes';
import { isPhotoURL } from './photos';
import type { ChannelMutes } from './mutes';
import type { Receipt, ReceiptSettings } from './receipts';

/** An answer's schema: its output is the model type the ports hand on. */
export type AnswerSchema<T> = z.ZodMiniType<T, unknown>;

const time = z.number().check(z.refine((value) => Number.isSafeInteger(value) && value >= 0, 'not a time'));
const documentId = z.string().check(z.regex(DOCUMENT_ID_PATTERN, 'not a QuPM id'));
const success = z.object({ success: z.literal(true) });
/** A face's URL (core/photos.ts): the server's own path or https, never another scheme. */
const photoURL = z.string().check(z.refine(isPhotoURL, 'not a photo URL'));

export const notificationSettingsAnswer: AnswerSchema<NotificationSettings> = z.object({
  enabled: z.boolean(),
  delivery: z.object({ channels: z.array(z.enum(DELIVERY_CHANNELS)) }),
});

export const userDocAnswer: AnswerSchema<UserDoc> = z.object({
  uid: z.string(),
  email: z.string(),
  isOwner: z.boolean(),
  domainId: z.optional(z.string()),
  nickname: z.optional(z.string()),
  displayName: z.optional(z.string()),
  notificationSettings: notificationSettingsAnswer,
  credits: z.number(),
  passCount: z.number(),
  effectiveConId: z.string(),
  photoURL: z.optional(photoURL),
});

export const authUserAnswer: AnswerSchema<AuthUser> = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.nullable(z.string()),
});

export const pushTokenDocAnswer: AnswerSchema<PushTokenDoc> = z.object({
  id: z.string(),
  token: z.string(),
  deviceId: z.string(),
  createdAt: z.number(),
  lastUsed: z.number(),
  status: z.literal('active'),
  platform: z.enum(PLATFORMS),
  userAgent: z.string(),
});

export const channelAnswer: AnswerSchema<Channel> = z.object({
  id: z.string(),
  channelId: z.string(),
  ownerId: z.string(),
  title: z.string(),
  description: z.string(),
  members: z.array(z.string()),
  createdAt: z.number(),
  kind: z.optional(z.literal('private')),
  names: z.optional(z.record(z.string(), z.string())),
  /** Archived by its owner (core/housekeeping.ts): read-only until opened again. */
  archivedAt: z.optional(time),
  photos: z.optional(z.record(z.string(), photoURL)),
});

const attachmentTypes = [...Object.keys(IMAGE_TYPES), ...Object.keys(DOCUMENT_TYPES)] as [
  AttachmentType,
  ...AttachmentType[],
];

/** core/attachments.ts decides what an attachment is; the shape is here for the serializer. */
const attachmentShape = z.object({
  id: z.string(),
  kind: z.enum(['image', 'document']),
  name: z.string(),
  contentType: z.enum(attachmentTypes),
  size: z.number(),
  width: z.optional(z.number()),
  height: z.optional(z.number()),
});
export const attachmentAnswer: AnswerSchema<Attachment> = attachmentShape.check(
  z.refine((value) => toAttachment(value) !== null, 'not an attachment QuPM keeps'),
);

const slotAnswer: AnswerSchema<Slot> = z.object({ startsAt: time, endsAt: time });
const bookingStates = ['requested', 'confirmed', 'done', 'declined', 'cancelled'] as const;
const bookingEvents = [
  'requested',
  'confirmed',
  'declined',
  'proposed',
  'proposal-accepted',
  'proposal-declined',
  'cancelled',
  'done',
  'refunded',
  'expired',
] as const;

/** A booking's or an offer's card (core/cards.ts); a card of a shape this client does not know is dropped. */
export const messageCardAnswer: AnswerSchema<MessageCard> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('booking'),
    bookingId: z.string(),
    event: z.enum(bookingEvents),
    serviceTitle: z.string(),
    startsAt: time,
    endsAt: time,
    state: z.enum(bookingStates),
    proposal: z.optional(slotAnswer),
  }),
  z.object({
    kind: z.literal('offer'),
    offeringId: z.string(),
    serviceId: z.string(),
    serviceTitle: z.string(),
    discountPercent: z.number(),
    expiresAt: time,
  }),
]);

const replyQuoteAnswer = z.object({
  id: documentId,
  senderId: z.string(),
  senderName: z.string(),
  snippet: z.string().check(z.maxLength(REPLY_SNIPPET_MAX)),
});

/**
 * A chat message, from a REST answer or a live event alike: ids of QuPM's shape, times that are times, a
 * `deleted` that is not `true` ignored and a malformed attachment dropped (the message is kept without it).
 */
export const chatMessageAnswer: AnswerSchema<ChatMessage> = z.object({
  id: documentId,
  channelId: documentId,
  senderId: z.string().check(z.minLength(1)),
  senderName: z.string(),
  text: z.string(),
  createdAt: time,
  editedAt: z.optional(time),
  deleted: z.catch(z.optional(z.literal(true)), undefined),
  updatedAt: z.optional(time),
  // 1 to 10 distinct files (core/attachments.ts toAttachmentList); a malformed list is dropped as a whole.
  attachments: z.catch(
    z.optional(
      z
        .array(attachmentAnswer)
        .check(z.refine((list) => toAttachmentList(list) !== null, 'not a list of files QuPM keeps')),
    ),
    undefined,
  ),
  card: z.catch(z.optional(messageCardAnswer), undefined),
  replyTo: z.catch(z.optional(replyQuoteAnswer), undefined),
  reactions: z.catch(z.optional(z.record(z.string(), z.enum(REACTIONS))), undefined),
});

/** The one reader of a chat message that crossed the wire (answers and live events): the message, or null. */
export function readChatMessage(value: unknown): ChatMessage | null {
  const result = chatMessageAnswer.safeParse(value);
  if (!result.success) return null;
  // A caught field reads as undefined: left out, as the message never had it.
  const message = result.data;
  if (message.deleted === undefined) delete message.deleted;
  if (message.attachments === undefined) delete message.attachments;
  if (message.card === undefined) delete message.card;
  if (message.replyTo === undefined) delete message.replyTo;
  if (message.reactions === undefined) delete message.reactions;
  return message;
}

const invitationStatus = z.enum(INVITATION_STATUSES as [InvitationStatus, ...InvitationStatus[]]);
export const invitationAnswer: AnswerSchema<Invitation> = z.object({
  id: z.string(),
  channelId: z.string(),
  channelTitle: z.string(),
  consultantId: z.string(),
  consultantName: z.string(),
  inviteeEmail: z.optional(z.string()),
  status: invitationStatus,
  passes: z.number(),
  credits: z.number(),
  expiresAt: z.number(),
  acceptedBy: z.optional(z.string()),
  privateConsultation: z.optional(z.boolean()),
  privateChannelId: z.optional(z.string()),
});

export const invitationPreviewAnswer: AnswerSchema<InvitationPreview> = z.object({
  id: z.string(),
  consultantName: z.string(),
  channelTitle: z.string(),
  passes: z.number(),
  credits: z.number(),
  expiresAt: z.number(),
  state: z.enum(['open', 'used', 'expired', 'withdrawn']),
  forOneEmail: z.boolean(),
});

const offerShape = {
  offeringId: z.string(),
  discountPercent: z.number(),
  source: z.string(),
  channelId: z.string(),
  status: z.enum(OFFER_STATUSES as [Offer['status'], ...Offer['status'][]]),
  expiresAt: z.number(),
  createdAt: z.number(),
};
export const offerAnswer: AnswerSchema<Offer> = z.object(offerShape);
export const issuedOfferAnswer: AnswerSchema<IssuedOffer> = z.object({
  ...offerShape,
  userId: z.string(),
  userName: z.string(),
  serviceId: z.optional(z.string()),
});

export const channelOverviewAnswer: AnswerSchema<ChannelOverview> = z.object({
  channel: channelAnswer,
  lastMessage: z.nullable(chatMessageAnswer),
  unread: z.number(),
});

export const channelMemberAnswer: AnswerSchema<ChannelMember> = z.object({
  uid: z.string(),
  name: z.string(),
  role: z.enum(['owner', 'member']),
  joinedAt: z.number(),
  photoURL: z.optional(photoURL),
});

const muteEnd = z.number().check(z.refine(isMuteEnd, 'not the end of a mute'));
export const channelMuteAnswer: AnswerSchema<ChannelMute> = z.object({
  channelId: z.string(),
  mutedUntil: muteEnd,
});
export const channelMutesAnswer: AnswerSchema<ChannelMutes> = z.record(z.string(), muteEnd);

const cursorAnswer = z.object({ createdAt: time, id: z.string() });
export const receiptAnswer: AnswerSchema<Receipt> = z.object({
  uid: z.string(),
  name: z.string(),
  read: z.nullable(cursorAnswer),
  readAt: z.nullable(time),
  delivered: z.nullable(cursorAnswer),
});
export const receiptSettingsAnswer: AnswerSchema<ReceiptSettings> = z.object({ enabled: z.boolean() });

export const adminUserAnswer: AnswerSchema<AdminUser> = z.object({
  uid: z.string(),
  email: z.string(),
  name: z.string(),
  isOwner: z.boolean(),
  isAdmin: z.boolean(),
  createdAt: z.number(),
});

export const adminChannelAnswer: AnswerSchema<AdminChannel> = z.object({
  channel: channelAnswer,
  ownerName: z.string(),
  messageCount: z.number(),
});

export const channelPermissionsAnswer: AnswerSchema<ChannelPermissions> = z.object({
  permissions: z.object({ canMessage: z.boolean(), isOwner: z.boolean() }),
});

export const signedInSessionAnswer: AnswerSchema<SignedInSession> = z.object({
  id: z.string(),
  browser: z.string(),
  platform: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number(),
  current: z.boolean(),
});

/** POST /api/auth/signup | signin | refresh. */
export interface SessionResponse {
  accessToken: string;
  refreshToken: string;
  user: AuthUser;
  /** Seconds until the access token expires. */
  expiresIn: number;
}
export const sessionAnswer: AnswerSchema<SessionResponse> = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: authUserAnswer,
  expiresIn: z.number(),
});

const exportedMessage: AnswerSchema<ExportedMessage> = z.object({
  id: z.string(),
  channelId: z.string(),
  channelTitle: z.string(),
  text: z.string(),
  createdAt: z.number(),
  editedAt: z.optional(z.number()),
  deleted: z.optional(z.literal(true)),
  attachments: z.optional(
    z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        kind: z.enum(['image', 'document']),
        contentType: z.enum(attachmentTypes),
        size: z.number(),
      }),
    ),
  ),
});
const exportedDevice: AnswerSchema<ExportedDevice> = z.object({
  id: z.string(),
  deviceId: z.string(),
  platform: z.enum(PLATFORMS),
  userAgent: z.string(),
  createdAt: z.number(),
  lastUsed: z.number(),
});
export const accountExportAnswer: AnswerSchema<AccountExport> = z.object({
  format: z.literal(ACCOUNT_EXPORT_FORMAT),
  version: z.literal(ACCOUNT_EXPORT_VERSION),
  exportedAt: z.string(),
  account: userDocAnswer,
  settings: notificationSettingsAnswer,
  mutes: channelMutesAnswer,
  messages: z.array(exportedMessage),
  offers: z.object({ received: z.array(offerAnswer), issued: z.array(issuedOfferAnswer) }),
  invitations: z.object({ sent: z.array(invitationAnswer), received: z.array(invitationAnswer) }),
  devices: z.array(exportedDevice),
});

/** The answers of every route, by the route's name in core/wire.ts. */
// ---- the consulting practice ------------------------------------------------------------------------------

export const serviceAnswer: AnswerSchema<Service> = z.object({
  id: z.string(),
  consultantId: z.string(),
  title: z.string(),
  description: z.string(),
  durationMinutes: z.number(),
  priceCredits: z.number(),
  status: z.enum(['active', 'archived']),
  createdAt: time,
  updatedAt: time,
});

export const availabilityAnswer: AnswerSchema<Availability> = z.object({
  consultantId: z.string(),
  timeZone: z.string(),
  hours: z.array(z.object({ day: z.number(), start: z.string(), end: z.string() })),
  updatedAt: time,
});

const balanceAnswer: AnswerSchema<Balance> = z.object({ credits: z.number(), passes: z.number() });

export const bookingAnswer: AnswerSchema<Booking> = z.object({
  id: z.string(),
  consultantId: z.string(),
  clientId: z.string(),
  clientName: z.optional(z.string()),
  consultantName: z.optional(z.string()),
  serviceId: z.string(),
  serviceTitle: z.string(),
  durationMinutes: z.number(),
  startsAt: time,
  endsAt: time,
  state: z.enum(bookingStates),
  payment: z.object({
    method: z.enum(['credits', 'pass']),
    amount: z.number(),
    listPrice: z.number(),
    offerId: z.optional(z.string()),
    discountPercent: z.optional(z.number()),
    status: z.enum(['held', 'captured', 'released', 'refunded']),
  }),
  proposal: z.optional(slotAnswer),
  channelId: z.string(),
  clientTimeZone: z.string(),
  consultantTimeZone: z.string(),
  sequence: z.number(),
  closedReason: z.optional(z.enum(['declined', 'cancelled-by-client', 'cancelled-by-consultant', 'expired'])),
  lateCancellation: z.optional(z.literal(true)),
  createdAt: time,
  updatedAt: time,
});

export const ledgerEntryAnswer: AnswerSchema<LedgerEntry> = z.object({
  id: z.string(),
  uid: z.string(),
  kind: z.enum(['opening', 'invitation', 'grant', 'hold', 'capture', 'release', 'refund']),
  delta: balanceAnswer,
  amount: balanceAnswer,
  balanceAfter: balanceAnswer,
  createdAt: time,
  bookingId: z.optional(z.string()),
  serviceId: z.optional(z.string()),
  invitationId: z.optional(z.string()),
  byUid: z.optional(z.string()),
  note: z.optional(z.string()),
});

export const earningsAnswer: AnswerSchema<Earnings> = z.object({
  services: z.array(
    z.object({
      serviceId: z.string(),
      serviceTitle: z.string(),
      sessions: z.number(),
      credits: z.number(),
      passes: z.number(),
    }),
  ),
  total: z.object({ credits: z.number(), passes: z.number(), sessions: z.number() }),
  offersUsed: z.array(
    z.object({
      offerId: z.string(),
      discountPercent: z.number(),
      bookingId: z.string(),
      serviceTitle: z.string(),
      clientId: z.string(),
      startsAt: time,
      creditsOff: z.number(),
    }),
  ),
});

export const receivedOfferAnswer: AnswerSchema<ReceivedOffer> = z.object({
  ...offerShape,
  consultantId: z.string(),
  serviceId: z.optional(z.string()),
  serviceTitle: z.optional(z.string()),
  state: z.enum(['active', 'used', 'expired', 'revoked']),
});

export const storedOfferAnswer: AnswerSchema<StoredOffer> = z.object({
  ...offerShape,
  userId: z.string(),
  serviceId: z.optional(z.string()),
  consultantId: z.optional(z.string()),
});

export const channelRemovalAnswer: AnswerSchema<{
  contents: ChannelContents;
  notice: { archive: string; delete: string };
}> = z.object({
  contents: z.object({
    title: z.string(),
    messages: z.number(),
    files: z.number(),
    members: z.number(),
    pendingInvitations: z.number(),
    activeOffers: z.number(),
  }),
  notice: z.object({ archive: z.string(), delete: z.string() }),
});

export const freeSlotsAnswer: AnswerSchema<{ slots: Slot[]; timeZone: string | null; noHours?: string }> =
  z.object({ slots: z.array(slotAnswer), timeZone: z.nullable(z.string()), noHours: z.optional(z.string()) });

export const ANSWERS = {
  health: z.object({ status: z.literal('ok') }),
  session: sessionAnswer,
  success,
  sessions: z.object({ sessions: z.array(signedInSessionAnswer) }),
  revoked: z.object({ revoked: z.number() }),
  passwordChanged: z.object({ success: z.literal(true), revoked: z.number() }),
  emailVerification: z.object({ email: z.string(), emailVerified: z.boolean() }),
  passwordReset: z.object({ success: z.literal(true), email: z.string() }),
  emailChange: z.object({ email: z.string() }),
  user: userDocAnswer,
  tokens: z.object({ tokens: z.array(pushTokenDocAnswer) }),
  token: pushTokenDocAnswer,
  channel: channelAnswer,
  channels: z.object({ channels: z.array(channelAnswer) }),
  message: chatMessageAnswer,
  messages: z.object({ messages: z.array(chatMessageAnswer) }),
  attachment: attachmentAnswer,
  overview: z.object({ channels: z.array(channelOverviewAnswer) }),
  members: z.object({ members: z.array(channelMemberAnswer) }),
  mutes: z.object({ mutes: channelMutesAnswer }),
  mute: channelMuteAnswer,
  receipts: z.object({ receipts: z.array(receiptAnswer) }),
  receiptSettings: receiptSettingsAnswer,
  invitation: invitationAnswer,
  invitations: z.object({ invitations: z.array(invitationAnswer) }),
  invitationPreview: invitationPreviewAnswer,
  activation: z.object({ invitation: invitationAnswer, user: userDocAnswer }),
  issuedOffer: issuedOfferAnswer,
  issuedOffers: z.object({ offers: z.array(issuedOfferAnswer) }),
  adminUsers: z.object({ users: z.array(adminUserAnswer) }),
  adminUser: adminUserAnswer,
  adminChannels: z.object({ channels: z.array(adminChannelAnswer) }),
  pushConfig: z.object({ vapidPublicKey: z.string() }),
  /** Firebase's callable protocol: the result is the callable's own (CALLABLE_RESULTS). */
  callable: z.object({ result: z.unknown() }),
  ticket: z.object({ ticket: z.string() }),
  accountExport: accountExportAnswer,
  services: z.object({ services: z.array(serviceAnswer) }),
  service: serviceAnswer,
  availability: z.object({ availability: z.nullable(availabilityAnswer) }),
  hours: availabilityAnswer,
  freeSlots: freeSlotsAnswer,
  booking: bookingAnswer,
  bookings: z.object({ upcoming: z.array(bookingAnswer), past: z.array(bookingAnswer) }),
  ledgerEntry: ledgerEntryAnswer,
  ledger: z.object({ entries: z.array(ledgerEntryAnswer), balance: balanceAnswer }),
  earnings: earningsAnswer,
  receivedOffers: z.object({ offers: z.array(receivedOfferAnswer) }),
  storedOffer: storedOfferAnswer,
  channelRemoval: channelRemovalAnswer,
  searchPage: z.object({ hits: z.array(chatMessageAnswer), next: z.nullable(z.string()) }),
} as const;

/** The callables' results (spec §7), by name: what `{"result": …}` holds. */
export const CALLABLE_RESULTS = {
  check_channel_permissions: channelPermissionsAnswer,
  get_user_active_offers: z.object({ offers: z.array(offerAnswer) }),
  clear_pending_notifications: z.object({ success: z.boolean() }),
} as const;
