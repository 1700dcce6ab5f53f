// The ports: everything the client needs from a backend, as domain verbs. Sagas call these and nothing else;
// the adapters (local/, firebase/) implement them. No SDK or fetch type crosses this file.
import type {
  AdminChannel,
  AdminUser,
  AuthUser,
  Channel,
  ChannelMember,
  ChannelOverview,
  ChannelPermissions,
  ChannelMute,
  ChatMessage,
  IdTokenClaims,
  Invitation,
  IssuedOffer,
  NewChannel,
  NewInvitation,
  NewOffer,
  NewPrivateChannel,
  NotificationSettings,
  Offer,
  Platform,
  PushTokenDoc,
  SignedInSession,
  UserDoc,
} from '@core/model';
import type { Attachment } from '@core/attachments';
import type { Reaction } from '@core/reactions';
import type { ErrorReason, ErrorStatus } from '@core/errors';
import type { InvitationPreview } from '@core/invitations';
import type { AccountExport } from '@core/leaving';
import type { MessageCursor, MessagesSince } from '@core/messages';
import type { SearchPage, SearchQuery } from '@core/search';
import type { ChannelMutes, MuteDuration } from '@core/mutes';
import type { Receipt, ReceiptSettings } from '@core/receipts';
import type { BookingRequest } from '@core/bookings';
import type { NewService, ServicePatch } from '@core/catalog';
import type { ChannelContents } from '@core/housekeeping';
import type { Earnings } from '@core/ledger';
import type { ReceivedOffer, StoredOffer } from '@core/offers';
import type { Availability, Balance, Booking, HoursInterval, LedgerEntry, Service, Slot } from '@core/model';

export type Unsubscribe = () => void;

/** Every port failure: a callable status, a plain message fit for a person, and an optional finer reason. */
export class BackendError extends Error {
  constructor(
    readonly status: ErrorStatus | 'UNAVAILABLE',
    message: string,
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = 'BackendError';
  }
}

export interface SignUpInput {
  email: string;
  password: string;
  displayName?: string;
}
export interface SignInInput {
  email: string;
  password: string;
}

export interface AuthPort {
  /**
   * Asks for an account: mails the address a link that finishes it, or, when the address has an account
   * already, tells its owner. Resolves the same either way, and signs nobody in (nobody can tell from the answer
   * whether the address has an account).
   */
  signUp(input: SignUpInput): Promise<void>;
  signIn(input: SignInInput): Promise<AuthUser>;
  signOut(): Promise<void>;
  currentUser(): AuthUser | null;
  /** The identity token's claims (spec §7: "the identity token result is read for claims"). */
  getIdTokenClaims(): Promise<IdTokenClaims>;
  /** Called with the current state once subscribed (null = signed out), then on every change. */
  onAuthStateChanged(listener: (user: AuthUser | null) => void): Unsubscribe;
  // The links QuPM mails ------------------------------------------------------------------
  /** Whether the signed-in account's address is confirmed, asked of the backend now (not a cached claim). */
  getEmailVerification(): Promise<EmailVerificationState>;
  /** Mails the signed-in account a new confirmation link (rate-limited: RESOURCE_EXHAUSTED). */
  sendEmailVerification(): Promise<void>;
  /** Confirms the address a mailed link was sent to, with its token; signed in or not. */
  verifyEmail(token: string): Promise<void>;
  /** Mails a link to choose a new password if an account has this address; resolves the same either way. */
  requestPasswordReset(email: string): Promise<void>;
  /** Sets a new password with a mailed link's token; every session the account had ends. */
  confirmPasswordReset(token: string, newPassword: string): Promise<void>;
  /**
   * Mails `newEmail` a link that makes it the account's address; the current password is
   * required. Nothing changes until the link is used (verifyEmail).
   */
  changeEmail(currentPassword: string, newEmail: string): Promise<void>;
}

/** What settings shows of the signed-in account's address. */
export interface EmailVerificationState {
  email: string;
  verified: boolean;
}

export interface ProfilePatch {
  nickname?: string;
  displayName?: string;
  notificationSettings?: NotificationSettings;
}

export interface UsersPort {
  /** users/{uid}; null when the document does not exist. */
  getUser(uid: string): Promise<UserDoc | null>;
  updateProfile(uid: string, patch: ProfilePatch): Promise<UserDoc>;
  /**
   * Sets (or replaces) the caller's own profile picture (core/photos.ts): a small square picture the client has
   * cropped and scaled; the bytes decide whether it is one (WebP, PNG, JPEG), at most 512 KB. Answers the document
   * with its new `photoURL` (a new URL with every picture); the channels the person is in carry it too, live. A
   * refused file is INVALID_ARGUMENT with words for the person and changes nothing; another's is PERMISSION_DENIED.
   */
  setPhoto(uid: string, picture: Blob): Promise<UserDoc>;
  /** Removes the caller's own picture (initials from then on); answers the document without `photoURL`. */
  removePhoto(uid: string): Promise<UserDoc>;
  /** Live changes of users/{uid} (balances granted by an activation, roles changed by an admin). */
  subscribeUser(uid: string, listener: (user: UserDoc) => void): Unsubscribe;
  /**
   * "Download my data": everything the backend keeps about the caller's own account
   * (core/leaving.ts AccountExport: no secret in it). Another account is PERMISSION_DENIED.
   */
  exportMyData(uid: string): Promise<AccountExport>;
  /**
   * "Delete my account": once `password` proves it is theirs, the caller's account goes (its
   * sessions, devices, pending counts and user document; its messages stay, as from "A former member") and this
   * device is signed out. A wrong password is PERMISSION_DENIED, a consultant who still owns channels
   * FAILED_PRECONDITION (nothing changes either way); an account already gone is UNAUTHENTICATED.
   */
  deleteMyAccount(uid: string, password: string): Promise<void>;
}

export interface ChannelsPort {
  getChannel(id: string): Promise<Channel | null>;
  /** spec §7: channels queried by the channelId field, limit 1. */
  findChannelByHandle(channelId: string): Promise<Channel | null>;
  listMyChannels(): Promise<Channel[]>;
  /** The channels the caller owns or joined, each with its last message and unread count, newest first. */
  listOverview(): Promise<ChannelOverview[]>;
  /** A consultant creates a channel (a taken handle is ALREADY_EXISTS). */
  createChannel(input: NewChannel): Promise<Channel>;
  /** Its owner changes a channel's title or description. */
  updateChannel(id: string, patch: { title?: string; description?: string }): Promise<Channel>;
  listMembers(id: string): Promise<ChannelMember[]>;
  /**
   * Opens the caller's private consultation (kind 'private', core/privateChannels.ts) with someone they share
   * `viaChannelId` with (its consultant, or a member of the caller's channel), or answers the one that exists:
   * one per pair, also when two windows ask at once.
   */
  openPrivateChannel(input: NewPrivateChannel): Promise<Channel>;
  /**
   * The caller has read the channel up to and including the message `upTo` (one of the channel's): their unread
   * count there counts only later messages. Idempotent and monotonic: a mark behind the stored one changes
   * nothing. `leaving`: the page is going away, so the adapter sends it in a way that outlives the page.
   */
  markRead(id: string, upTo: string, options?: { leaving?: boolean }): Promise<void>;
  /** Live: a channel the caller can see was created, changed, or gained a member. */
  subscribeChannels(listener: (channel: Channel) => void): Unsubscribe;
}

export interface NewMessage {
  /** Client-generated (a document id's shape, core/ids.ts newDocumentId): the send's idempotency key. */
  id: string;
  /** May be empty when the message carries an attachment (core/messageText.ts). */
  text: string;
  /**
   * Files uploadAttachment answered for this channel, sent with the message (each once), in order: 1 to 10
   * (core/attachments.ts ATTACHMENT_COUNT_MAX); more, or one twice, is INVALID_ARGUMENT with nothing sent.
   */
  attachments?: Attachment[];
  /**
   * The id of the earlier message of this channel it answers (core/replies.ts); the backend stores the quote.
   * A message of another channel, or none, is NOT_FOUND; a deleted one FAILED_PRECONDITION.
   */
  replyTo?: string;
}

/**
 * The caller's mutes of their channels (core/mutes.ts): a muted channel sends them no push and
 * adds nothing to their badge until the mute ends. Only a channel the caller is in (PERMISSION_DENIED otherwise);
 * a duration other than the three is INVALID_ARGUMENT. The backend's clock decides when a mute ends.
 */
export interface MutesPort {
  /** The caller's mutes in force, by channel id. */
  listMutes(): Promise<ChannelMutes>;
  /** Mutes the channel for '1h', '8h' or 'forever' (until unmuted), replacing a mute there was. */
  muteChannel(channelId: string, duration: MuteDuration): Promise<ChannelMute>;
  /** Unmutes the channel (one that was not muted stays so). */
  unmuteChannel(channelId: string): Promise<void>;
  /**
   * Live: the caller's mutes in force, whenever they change (a mute or unmute in this window or any other of the
   * same person), and again once the live connection (re)opens, so a window that was offline catches up. Never
   * another person's.
   */
  subscribeMutes(listener: (mutes: ChannelMutes) => void): Unsubscribe;
}

/**
 * Read receipts (core/receipts.ts): the marks of a channel's other participants, as the caller may see them. The
 * backend enforces who shares: someone who turned receipts off is never in anyone's list, and sees an empty one.
 * Owner and members only (PERMISSION_DENIED otherwise).
 */
export interface ReceiptsPort {
  listReceipts(channelId: string): Promise<Receipt[]>;
  /**
   * Live: the channel's receipts as the caller may see them, all of them each time: once read, on every change
   * (a mark moved, someone stopped or started sharing), and again once the live connection (re)opens.
   */
  subscribeReceipts(channelId: string, listener: (receipts: Receipt[]) => void): Unsubscribe;
  /**
   * A device of the caller's got the channel up to the message `upTo` (a page or a live batch reached it): the
   * sender may see "Delivered". Monotonic, as markRead.
   */
  markDelivered(channelId: string, upTo: string): Promise<void>;
  getSettings(): Promise<ReceiptSettings>;
  setSettings(settings: ReceiptSettings): Promise<ReceiptSettings>;
}

/** Someone is typing in a channel (never stored). */
export interface TypingSignal {
  uid: string;
  name: string;
}

/** "Dana is typing…": signals only, each shown for a few seconds (core/receipts.ts TYPING_SHOWN_MS). */
export interface TypingPort {
  /** The caller is typing in the channel (the client throttles: core/receipts.ts TYPING_SIGNAL_EVERY_MS). */
  sendTyping(channelId: string): Promise<void>;
  /** Live: each signal of someone else typing in the channel, as it comes (never the caller's own). */
  subscribeTyping(channelId: string, listener: (signal: TypingSignal) => void): Unsubscribe;
}

export interface UploadOptions {
  /** Called as the bytes go out: how many have been sent, of how many. */
  onProgress?: (sent: number, total: number) => void;
  /** Aborting stops the upload; the call then fails, and nothing is kept. */
  signal?: AbortSignal;
}

/** The words of an upload the person cancelled (the call fails with them; nobody needs to show them). */
export const UPLOAD_CANCELLED = 'The upload was cancelled.';

/** A channel's messages, ordered by (createdAt, id) (core/messages.ts). */
export interface MessagesPort {
  /**
   * Oldest first. Without a cursor: the newest `limit`. `before`: the newest `limit` before it (paging back).
   * `after`: the oldest `limit` after it (catching up). Messages sharing a millisecond are never skipped.
   */
  listMessages(
    channelId: string,
    options?: { before?: MessageCursor; after?: MessageCursor; limit?: number },
  ): Promise<ChatMessage[]>;
  /**
   * Stores the message under its id once. A repeat of an id this caller already sent in this channel answers the
   * stored message and changes nothing (whatever its text), so an outbox may retry freely; an id taken otherwise
   * is ALREADY_EXISTS.
   */
  sendMessage(channelId: string, message: NewMessage): Promise<ChatMessage>;
  /**
   * Its sender changes a message's text (trimmed, as a send's) within 24 hours of sending it
   * (core/messageEdits.ts). Answers the message as it now stands, `editedAt` set. Refused, with nothing written:
   * someone else's (PERMISSION_DENIED), after 24 hours or a deleted one (FAILED_PRECONDITION), an unknown message
   * (NOT_FOUND), a bad text (INVALID_ARGUMENT), someone outside the channel (PERMISSION_DENIED). No push.
   */
  editMessage(channelId: string, messageId: string, text: string): Promise<ChatMessage>;
  /**
   * Its sender, or the channel's owner, deletes a message: its text is removed from storage and a
   * tombstone (`deleted: true`, text '') stays in its place. Answers the tombstone. A deleted message is refused
   * (FAILED_PRECONDITION), as are someone else's for anyone but the owner, and an unknown message. No push.
   */
  deleteMessage(channelId: string, messageId: string): Promise<ChatMessage>;
  /**
   * Sets the caller's reaction to a message (core/reactions.ts), replacing their earlier one, or takes it back
   * (`null`). Answers the message as it now stands; every subscriber gets it as a new version. Refused: an emoji
   * outside the set (INVALID_ARGUMENT), someone outside the channel (PERMISSION_DENIED), a deleted message
   * (FAILED_PRECONDITION), an unknown one (NOT_FOUND).
   */
  reactToMessage(channelId: string, messageId: string, emoji: Reaction | null): Promise<ChatMessage>;
  /**
   * Uploads a file for a message the caller is about to send in the channel (core/attachments.ts: images and
   * documents up to 10 MB, the type decided by the bytes). Members only. Answers the attachment to send with
   * sendMessage; a refused file is INVALID_ARGUMENT with words for the person, and leaves nothing stored.
   */
  uploadAttachment(channelId: string, file: Blob, name: string, options?: UploadOptions): Promise<Attachment>;
  /** The bytes of a message's attachment, for the channel's members only. */
  readAttachment(channelId: string, attachment: Attachment): Promise<Blob>;
  /**
   * Live: every message of the channel the subscriber does not hold yet (`since`), each once, also those posted
   * while the connection was down (delivered when it is back), and every later version of a message (an edit, a
   * deletion: `since.changes`), each version once, also those made while it was down. Messages that arrive
   * together come as one batch, in order. A version of a message the subscriber never held may come too (an
   * older message changed): the subscriber keeps only what it holds (core/messages.ts).
   */
  subscribeMessages(
    channelId: string,
    since: MessagesSince,
    listener: (messages: ChatMessage[]) => void,
  ): Unsubscribe;
}

/**
 * The live connection behind the subscriptions: 'connecting' until it first delivers, 'live' while it does,
 * 'interrupted' while it is down and being retried. Every change to 'live' after 'interrupted' means the
 * subscriptions have caught up with what was missed; document reads that are not subscriptions (the channel
 * overview, offers) should be read again.
 */
export type LiveStatus = 'connecting' | 'live' | 'interrupted';

export interface LivePort {
  /** Called with the current status once subscribed, then on every change. */
  subscribeStatus(listener: (status: LiveStatus) => void): Unsubscribe;
}

export interface InvitationsPort {
  getInvitation(id: string): Promise<Invitation>;
  /**
   * What anyone holding the link may see, signed in or not (core/invitations.ts
   * InvitationPreview): who invites to which channel, what it grants, until when, and whether it is still open.
   */
  previewInvitation(id: string): Promise<InvitationPreview>;
  acceptInvitation(id: string): Promise<Invitation>;
  activateInvitation(id: string): Promise<{ invitation: Invitation; user: UserDoc }>;
  /** The channel's owner invites someone. */
  createInvitation(input: NewInvitation): Promise<Invitation>;
  /** A channel's invitations, for its owner (newest first). */
  listChannelInvitations(channelId: string): Promise<Invitation[]>;
  /** The invitations waiting for the caller: naming their email, still pending and unexpired, newest first. */
  listMyInvitations(): Promise<Invitation[]>;
  /**
   * Live: the invitations addressed to the caller may have changed (one was created, accepted or activated, in
   * this window or another), or the live connection has just (re)opened and changes may have been missed. The
   * listener reads them again.
   */
  subscribeMyInvitations(listener: () => void): Unsubscribe;
}

/** Offers from the consultant's side; a user's own active offers come from the get_user_active_offers callable. */
export interface OffersPort {
  issueOffer(input: NewOffer): Promise<IssuedOffer>;
  /** The offers the caller issued, newest first. */
  listIssuedOffers(): Promise<IssuedOffer[]>;
  /** Every offer made to the caller, with its service and its state now: active first, then used and expired. */
  listMyOffers(): Promise<ReceivedOffer[]>;
  /** Its consultant withdraws an offer (a repeat changes nothing). */
  withdrawOffer(offerId: string): Promise<StoredOffer>;
  /** Live: the caller's offers changed (one was issued to them, or by them). */
  subscribeOffers(listener: () => void): Unsubscribe;
}

/** The admin section (isAdmin claim only; every call is checked by the backend too). */
export interface AdminPort {
  listUsers(): Promise<AdminUser[]>;
  /** Makes (true) or unmakes (false) a consultant. */
  setConsultant(uid: string, isOwner: boolean): Promise<AdminUser>;
  listChannels(): Promise<AdminChannel[]>;
}

export interface NewPushToken {
  token: string;
  deviceId: string;
  platform: Platform;
  userAgent: string;
}

/** users/{uid}/FCMTokens (spec §7 token documents). */
export interface PushTokensPort {
  /** Query by token and status 'active'. */
  findActiveToken(uid: string, token: string): Promise<PushTokenDoc | null>;
  addToken(uid: string, token: NewPushToken): Promise<PushTokenDoc>;
  touchToken(uid: string, id: string): Promise<PushTokenDoc>;
  deleteToken(uid: string, id: string): Promise<void>;
  listMyTokens(uid: string): Promise<PushTokenDoc[]>;
}

/** The callable functions of spec §7. */
export interface CallablesPort {
  checkChannelPermissions(payload: {
    channel_id: string;
    channel_owner_id?: string;
  }): Promise<ChannelPermissions>;
  getUserActiveOffers(): Promise<{ offers: Offer[] }>;
  clearPendingNotifications(payload: { userId: string }): Promise<{ success: boolean }>;
}

/** The push provider (FCM, or the browser's Push API for the local backend). */
export interface PushProviderPort {
  /**
   * spec §8: what the provider says when notification permission is blocked; settings shows it word for word.
   */
  readonly permissionBlockedMessage: string;
  /** The public web-push (VAPID) key tokens are created with (spec §7). */
  getPublicKey(): Promise<string>;
  getToken(options: {
    vapidKey: string;
    serviceWorkerRegistration: ServiceWorkerRegistration;
  }): Promise<string>;
  deleteToken(): Promise<boolean>;
}

/** The account's signed-in sessions, and its password (the current one required). */
export interface SessionsPort {
  /**
   * Whether the backend knows every session of the account (the embedded server). Firebase Auth cannot list
   * them: it lists this one only, and signing out "everywhere else" ends this one too (docs/decisions/auth.md).
   */
  readonly listsEverySession: boolean;
  /** The account's sessions that still stand, most recently used first; this one `current`. */
  listSessions(): Promise<SignedInSession[]>;
  /** Ends one session: its live data, its device's push token, its access at once. NOT_FOUND when gone. */
  signOutSession(id: string): Promise<void>;
  /** Ends every other session of the account (on Firebase: every one, this one included). */
  signOutOtherSessions(): Promise<void>;
  /**
   * Changes the password: PERMISSION_DENIED (reason 'wrong-password') when the current one is not right; the
   * account's other sessions end, this one stays.
   */
  changePassword(currentPassword: string, newPassword: string): Promise<void>;
}

/**
 * Every change of the practice carries an operation id the client makes (core/ids.ts newDocumentId): the same
 * id sent again (a retry after a lost answer) answers the first result and changes nothing; the id reused for
 * another change is ALREADY_EXISTS 'operation-reused' (core/operations.ts).
 */
export interface Operation {
  operationId: string;
}

/** A service's free times (core/availability.ts freeSlots) and the zone the consultant's hours are in. */
export interface FreeSlots {
  slots: Slot[];
  /** null: the consultant has set no hours. */
  timeZone: string | null;
  /** Words for a consultant with no hours. */
  noHours?: string;
}

/** A consultant's services and weekly hours, and the times a service can be booked (core/catalog.ts). */
export interface ServicesPort {
  /** A consultant's services (the consultant, their clients, admins; archived ones to the consultant alone). */
  listServices(consultantId: string): Promise<Service[]>;
  createService(input: NewService & Operation): Promise<Service>;
  /** Edits, archives (status 'archived') or restores a service of the caller's. */
  updateService(serviceId: string, patch: ServicePatch): Promise<Service>;
  /** A consultant's hours and zone; null when none are set. */
  getHours(consultantId: string): Promise<Availability | null>;
  /** The caller's own hours (consultants only). */
  setHours(input: { timeZone: string; hours: HoursInterval[] }): Promise<Availability>;
  /** The free times of a service between `from` and `to` (epoch ms, at most 31 days apart). */
  listFreeSlots(query: { serviceId: string; from: number; to: number }): Promise<FreeSlots>;
  /**
   * Live: the consultant's services or hours changed, or the connection (re)opened and changes may have been
   * missed; the listener reads again what it shows. On Firebase only the consultant's own are followed (the rules
   * let a client get them through list_services, not listen): a client's list is read when it is shown.
   */
  subscribeServices(consultantId: string, listener: () => void): Unsubscribe;
}

/** Bookings and every step on them (core/bookings.ts); each step once per operation id. */
export interface BookingsPort {
  /** A client books: the price held, the time taken, the offer used. */
  requestBooking(input: BookingRequest & Operation): Promise<Booking>;
  getBooking(bookingId: string): Promise<Booking>;
  /** The caller's bookings as client and consultant: upcoming soonest first, then past, latest first. */
  listMyBookings(): Promise<{ upcoming: Booking[]; past: Booking[] }>;
  confirmBooking(bookingId: string, step: Operation): Promise<Booking>;
  declineBooking(bookingId: string, step: Operation): Promise<Booking>;
  proposeTime(bookingId: string, step: Operation & { startsAt: number }): Promise<Booking>;
  acceptProposal(bookingId: string, step: Operation): Promise<Booking>;
  declineProposal(bookingId: string, step: Operation): Promise<Booking>;
  cancelBooking(bookingId: string, step: Operation): Promise<Booking>;
  completeBooking(bookingId: string, step: Operation): Promise<Booking>;
  refundBooking(bookingId: string, step: Operation): Promise<Booking>;
  /**
   * Live: a booking of the caller's as it is now (a new one, or a step on it); null when the connection
   * (re)opened and steps may have been missed: read the list again.
   */
  subscribeBookings(listener: (booking: Booking | null) => void): Unsubscribe;
}

/** Credits and passes as an append-only ledger (core/ledger.ts). */
export interface LedgerPort {
  /** A consultant grants their client, or an admin anyone: the entry written. */
  grant(
    input: { userId: string; credits?: number; passes?: number; note?: string } & Operation,
  ): Promise<LedgerEntry>;
  /** The caller's entries, newest first, and the balance they sum to. */
  listMyLedger(): Promise<{ entries: LedgerEntry[]; balance: Balance }>;
  /** What the caller's services earned, and which offers were used. */
  getEarnings(): Promise<Earnings>;
}

/** What archiving and deleting a channel would do (core/housekeeping.ts), said before either is done. */
export interface ChannelRemoval {
  contents: ChannelContents;
  notice: { archive: string; delete: string };
}

/** The consultant's housekeeping of their channels (core/housekeeping.ts). */
export interface HousekeepingPort {
  describeChannelRemoval(channelId: string): Promise<ChannelRemoval>;
  archiveChannel(channelId: string): Promise<Channel>;
  unarchiveChannel(channelId: string): Promise<Channel>;
  /** For good: messages, files, memberships, invitations, offers (bookings stay). */
  deleteChannel(channelId: string): Promise<void>;
  removeMember(channelId: string, uid: string): Promise<Channel>;
  revokeInvitation(invitationId: string): Promise<Invitation>;
  /** To another consultant (the owner, or an admin). */
  handOverChannel(channelId: string, toUid: string): Promise<Channel>;
  /** Live: a channel the caller was in is gone for them (deleted, or they were taken out of it): drop it. */
  subscribeChannelRemoved(listener: (channelId: string) => void): Unsubscribe;
}

/**
 * Message search (core/search.ts): by words (each the start of a word of the message, all of them needed, without
 * case or accents), in one channel of the caller's or across all the channels they own or are in, never another;
 * newest first, a page at a time (`next` asks for the one after). A deleted message is never found, an edited one
 * by its new words only. Text with no word in it finds nothing; a text over SEARCH_TEXT_MAX characters or
 * SEARCH_WORDS_MAX words is INVALID_ARGUMENT; a channel the caller is not in is PERMISSION_DENIED.
 */
export interface SearchPort {
  searchMessages(query: SearchQuery): Promise<SearchPage>;
}

export interface Backend {
  readonly kind: 'local' | 'firebase';
  auth: AuthPort;
  users: UsersPort;
  channels: ChannelsPort;
  mutes: MutesPort;
  receipts: ReceiptsPort;
  typing: TypingPort;
  messages: MessagesPort;
  live: LivePort;
  invitations: InvitationsPort;
  offers: OffersPort;
  admin: AdminPort;
  pushTokens: PushTokensPort;
  callables: CallablesPort;
  pushProvider: PushProviderPort;
  sessions: SessionsPort;
  services: ServicesPort;
  bookings: BookingsPort;
  ledger: LedgerPort;
  housekeeping: HousekeepingPort;
  search: SearchPort;
}
