// The documents of ARCHITECTURE.md ("Data"), the same shape in SQLite and Firestore. Times are epoch
// milliseconds on the wire and in the store (plain, serializable numbers).
import type { Attachment } from './attachments';
import type { DeliveryChannel } from './limits';
import type { Reaction } from './reactions';
import type { ReplyQuote } from './replies';

export type Platform = 'ios' | 'android' | 'web';

export interface NotificationSettings {
  enabled: boolean;
  delivery: { channels: DeliveryChannel[] };
}

/** users/{uid}. Role and balance fields are written by the backend only. */
export interface UserDoc {
  uid: string;
  email: string;
  isOwner: boolean;
  domainId?: string;
  nickname?: string;
  displayName?: string;
  notificationSettings: NotificationSettings;
  credits: number;
  passCount: number;
  effectiveConId: string;
  /** Their profile picture's URL (core/photos.ts), new with every change; absent: initials on a colour. */
  photoURL?: string;
}

/** users/{uid}/FCMTokens/{id} (spec §3 push token document). */
export interface PushTokenDoc {
  id: string;
  token: string;
  deviceId: string;
  createdAt: number;
  lastUsed: number;
  status: 'active';
  platform: Platform;
  userAgent: string;
}

export interface Channel {
  id: string;
  /** The channel's public handle (spec §3 "channelId"), unique, queried with limit 1. */
  channelId: string;
  ownerId: string;
  title: string;
  description: string;
  members: string[];
  createdAt: number;
  /**
   * 'private': a private consultation (core/privateChannels.ts) between its owner (the consultant) and its one
   * member, read and written by those two only. Absent on an ordinary channel.
   */
  kind?: 'private';
  /** A private consultation's two participants' public names as they were when it was opened, by uid. */
  names?: Record<string, string>;
  /**
   * When its owner archived it (core/housekeeping.ts): read-only from then on, its messages kept; absent while it
   * is open.
   */
  archivedAt?: number;
  /**
   * The faces of its owner and members who have one (core/photos.ts), by uid: a face changed reaches every window
   * with the channel's own live change. Absent when nobody in it has one.
   */
  photos?: Record<string, string>;
}

export interface ChatMessage {
  id: string;
  channelId: string;
  senderId: string;
  senderName: string;
  /** '' once deleted (the text is removed from storage, not hidden); empty too when the message carries only an
   * attachment (core/messageText.ts). */
  text: string;
  createdAt: number;
  /** When its sender last edited it (the bubble says "edited"); absent when never edited. */
  editedAt?: number;
  /** Deleted by its sender or the channel's owner: a "Message deleted" tombstone. */
  deleted?: true;
  /**
   * When it last changed (an edit or a deletion); absent when never changed (its version is then createdAt).
   * Two copies of one message: the one with the later version is the newer word (core/messages.ts).
   */
  updatedAt?: number;
  /**
   * Files sent with (or instead of) the text, 1 to 10 in the order chosen (core/attachments.ts); gone once the
   * message is deleted. A message from before several files carries a list of one.
   */
  attachments?: Attachment[];
  /**
   * A card the backend posts (core/cards.ts): a booking's change or an offer, shown as a card; its `text` is the
   * plain words of it (the push, the channel list, any client that does not know cards). Never written by a client.
   */
  card?: MessageCard;
  /** The earlier message of the channel it answers (core/replies.ts); its snippet is '' once that was deleted. */
  replyTo?: ReplyQuote;
  /** Who reacted how (core/reactions.ts), by uid; absent when nobody has. A reaction changes the version. */
  reactions?: Record<string, Reaction>;
}

/** 'revoked': its consultant withdrew it before anyone accepted it (core/housekeeping.ts). */
export type InvitationStatus = 'pending' | 'accepted' | 'activated' | 'expired' | 'revoked';

export interface Invitation {
  id: string;
  channelId: string;
  channelTitle: string;
  consultantId: string;
  consultantName: string;
  inviteeEmail?: string;
  status: InvitationStatus;
  passes: number;
  credits: number;
  expiresAt: number;
  acceptedBy?: string;
  /** Accepting it opens a private consultation with the consultant (core/privateChannels.ts). */
  privateConsultation?: boolean;
  /** The private consultation its acceptance opened. */
  privateChannelId?: string;
}

/** spec §3 Offer. */
export interface Offer {
  offeringId: string;
  discountPercent: number;
  source: string;
  channelId: string;
  status: 'active' | 'used' | 'revoked';
  expiresAt: number;
  createdAt: number;
}

// ---- the consulting practice (ARCHITECTURE.md: credits, passes, services, bookings and the ledger) ----------

/** A service's state: 'active' is bookable; 'archived' is kept for the bookings that name it, never booked again. */
export type ServiceStatus = 'active' | 'archived';

/** services/{id}: what a consultant offers (core/catalog.ts). */
export interface Service {
  id: string;
  consultantId: string;
  title: string;
  description: string;
  /** Whole minutes, a multiple of the 15-minute slot grid (core/catalog.ts SERVICE_LIMITS). */
  durationMinutes: number;
  /** Whole credits; 0 is a free session. */
  priceCredits: number;
  status: ServiceStatus;
  createdAt: number;
  updatedAt: number;
}

/** One interval of a consultant's weekly hours, wall-clock in their time zone (core/availability.ts). */
export interface HoursInterval {
  /** ISO weekday: 1 Monday … 7 Sunday. */
  day: number;
  /** 'HH:MM' on the 15-minute grid, 00:00 to 23:45. */
  start: string;
  /** 'HH:MM' on the 15-minute grid, after `start`, up to 24:00. */
  end: string;
}

/** availability/{consultantId}: when a consultant takes bookings. */
export interface Availability {
  consultantId: string;
  /** An IANA time zone ('Europe/Paris'): the hours are wall-clock times there, daylight saving included. */
  timeZone: string;
  hours: HoursInterval[];
  updatedAt: number;
}

/** A span of time, epoch ms, end excluded. */
export interface Slot {
  startsAt: number;
  endsAt: number;
}

/** requested → confirmed → done, or declined / cancelled (core/bookings.ts). */
export type BookingState = 'requested' | 'confirmed' | 'done' | 'declined' | 'cancelled';
export type PaymentMethod = 'credits' | 'pass';
/** held at request, captured at confirmation, released (never taken) or refunded (taken, then given back). */
export type PaymentStatus = 'held' | 'captured' | 'released' | 'refunded';

export interface BookingPayment {
  method: PaymentMethod;
  /** What is held or taken: credits (after the offer's discount), or 1 pass. */
  amount: number;
  /** The service's price in credits when it was booked. */
  listPrice: number;
  /** The offer applied (its discount once), when one was. */
  offerId?: string;
  discountPercent?: number;
  status: PaymentStatus;
}

/** Why a booking ended without taking place. */
export type BookingClosedReason = 'declined' | 'cancelled-by-client' | 'cancelled-by-consultant' | 'expired';

/** bookings/{id}: a client's request for a service at a time. */
export interface Booking {
  id: string;
  consultantId: string;
  clientId: string;
  /**
   * The names the two go by (core/users.ts publicName), so a consultant's list tells two clients' requests apart:
   * the embedded server reads them from the profiles at every read; on Firebase functions/ writes them on the
   * document (each step, and each rename). Absent on a document from before: screens say "A client".
   */
  clientName?: string;
  consultantName?: string;
  serviceId: string;
  /** The service's title and length as they were when it was booked. */
  serviceTitle: string;
  durationMinutes: number;
  startsAt: number;
  endsAt: number;
  state: BookingState;
  payment: BookingPayment;
  /** Another time the consultant proposed, waiting for the client's answer. */
  proposal?: Slot;
  /** The conversation its cards go to: the private consultation of the two. */
  channelId: string;
  /** The client's and the consultant's IANA time zones, for the times each one reads. */
  clientTimeZone: string;
  consultantTimeZone: string;
  /** The iCalendar SEQUENCE of its invitation: raised by every change a calendar must follow. */
  sequence: number;
  closedReason?: BookingClosedReason;
  /** A confirmed session the client cancelled within 24 h of its start: its price stays taken (the consultant may refund). */
  lateCancellation?: true;
  createdAt: number;
  updatedAt: number;
}

export type LedgerKind = 'opening' | 'invitation' | 'grant' | 'hold' | 'capture' | 'release' | 'refund';

/** A person's credits and passes. */
export interface Balance {
  credits: number;
  passes: number;
}

/** users/{uid}/ledger/{id}: one movement of a person's balance (core/ledger.ts), never changed or deleted. */
export interface LedgerEntry {
  /** The operation id that made it (a repeat of it changes nothing), or a derived one (core/ledger.ts LEDGER_IDS). */
  id: string;
  uid: string;
  kind: LedgerKind;
  /** What it did to the balance (the sum of a person's deltas is their balance). */
  delta: Balance;
  /** How much it was about: equal to the delta but for a hold (negative delta) and a capture (no delta). */
  amount: Balance;
  /** The balance right after it. */
  balanceAfter: Balance;
  createdAt: number;
  bookingId?: string;
  serviceId?: string;
  invitationId?: string;
  /** Who granted it (a consultant or an admin). */
  byUid?: string;
  note?: string;
}

/** What happened to a booking, as its card says (core/cards.ts). */
export type BookingEvent =
  | 'requested'
  | 'confirmed'
  | 'declined'
  | 'proposed'
  | 'proposal-accepted'
  | 'proposal-declined'
  | 'cancelled'
  | 'done'
  | 'refunded'
  | 'expired';

/** A card in the conversation (core/cards.ts), a message of its own kind. */
export type MessageCard =
  | {
      kind: 'booking';
      bookingId: string;
      event: BookingEvent;
      serviceTitle: string;
      startsAt: number;
      endsAt: number;
      state: BookingState;
      proposal?: Slot;
    }
  | {
      kind: 'offer';
      offeringId: string;
      serviceId: string;
      serviceTitle: string;
      discountPercent: number;
      expiresAt: number;
    };

/** One channel as the person's channel list shows it: its last message and how many are unread. */
export interface ChannelOverview {
  channel: Channel;
  lastMessage: ChatMessage | null;
  /** Messages from others after the person's read marker for this channel. */
  unread: number;
}

/** A person's mute of one channel: until when, epoch ms (core/mutes.ts MUTED_FOREVER: until unmuted). */
export interface ChannelMute {
  channelId: string;
  mutedUntil: number;
}

/** A person in a channel, as its owner and members see them. */
export interface ChannelMember {
  uid: string;
  /** Public name (nickname, else displayName, else the email's local part). */
  name: string;
  role: 'owner' | 'member';
  /** When they joined (the owner: when the channel was created). */
  joinedAt: number;
  /** Their profile picture (core/photos.ts); absent: initials. */
  photoURL?: string;
}

/** An offer as the consultant who issued it sees it: the spec's fields plus whom it was for (and which service). */
export interface IssuedOffer extends Offer {
  userId: string;
  userName: string;
  serviceId?: string;
}

/** A user as the admin section lists them (ARCHITECTURE.md: admins see users and roles). */
export interface AdminUser {
  uid: string;
  email: string;
  name: string;
  isOwner: boolean;
  isAdmin: boolean;
  createdAt: number;
}

/** A channel as the admin section lists it. */
export interface AdminChannel {
  channel: Channel;
  ownerName: string;
  messageCount: number;
}

/** spec §3 Channel permissions result. */
export interface ChannelPermissions {
  permissions: { canMessage: boolean; isOwner: boolean };
}

/** The claims QuPM reads from the identity token (spec §6: admin from the isAdmin claim). */
export interface IdTokenClaims {
  isAdmin: boolean;
}

/** A serializable summary of the signed-in account. */
export interface AuthUser {
  uid: string;
  email: string;
  displayName: string | null;
}

// ---- requests: what a client asks a backend to create (the ports take them; the screens' slices carry them)

export interface NewChannel {
  /** The public handle: lowercase letters, digits and single dashes, 3-40 characters. */
  channelId: string;
  title: string;
  description: string;
}

export interface NewInvitation {
  channelId: string;
  /** Only this email may accept it; without one, anyone with the link may (once). */
  inviteeEmail?: string;
  passes: number;
  credits: number;
  expiresAt: number;
  /** Accepting it opens a private consultation between the consultant and the invitee. */
  privateConsultation?: boolean;
}

/** Opens (or finds) the private consultation with `withUid`, whom the caller meets in `viaChannelId`. */
export interface NewPrivateChannel {
  withUid: string;
  viaChannelId: string;
}

export interface NewOffer {
  channelId: string;
  /** A member of the channel. */
  userId: string;
  /** The consultant's active service it is for (required: core/schemas.ts offerCreateBody). */
  serviceId: string;
  /** 1 to 100. */
  discountPercent: number;
  source?: string;
  expiresAt: number;
}

/** What a new account is given at sign-up: notifications on, by push and in the app. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enabled: true,
  delivery: { channels: ['push', 'in_app'] },
};

/**
 * spec §5: token work runs only when the user document exists, `enabled` is true and the channels include push.
 * A missing or malformed `notificationSettings` is therefore read as this: not opted in to anything.
 */
export const NOT_OPTED_IN: NotificationSettings = { enabled: false, delivery: { channels: [] } };

/**
 * One signed-in session of the account (a refresh-token family on the embedded server), as
 * Settings → Devices lists it. `browser` and `platform` are names for a person ("Chrome", "Android"), read from
 * the user agent the session was started with; `current` marks the session asking.
 */
export interface SignedInSession {
  id: string;
  browser: string;
  platform: string;
  createdAt: number;
  lastUsedAt: number;
  current: boolean;
}
