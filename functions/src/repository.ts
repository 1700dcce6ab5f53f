// The ports of functions/: everything the handlers need from Firestore and FCM, as domain verbs. The handlers
// decide (with core/); a repository only reads, writes and runs transactions. firestoreRepository.ts and
// fcm.ts implement these on the Admin SDK; tests give fakes.
import type { ReceiptsRepository } from './receiptsRepository';
import type { Attachment } from '../../core/attachments';
import type { ReadMark } from '../../core/channels';
import type { MissedMailState } from '../../core/missedMail';
import type {
  Channel,
  ChatMessage,
  Invitation,
  LedgerEntry,
  NotificationSettings,
  PushTokenDoc,
  UserDoc,
} from '../../core/model';
import type { TokenSavePlan } from '../../core/pushTokens';
import type { ChannelMutes } from '../../core/mutes';
import type { MessageCursor } from '../../core/messages';
import type { StoredOffer } from '../../core/offers';
import type { JoinedChannel } from '../../core/users';
import type { AccountExportParts } from '../../core/leaving';
import type { PracticeRepository } from './practiceRepository';

/** An upload record: whose file, for which channel, as the client described it, and the message that took it. */
export interface UploadRecord {
  channelId: string;
  uploaderId: string;
  /** The attachment as the client recorded it (core/attachments.ts toAttachment); null when unreadable. */
  attachment: Attachment | null;
  attachmentId: string;
  createdAt: number;
  /** The message that sent it; null while it is unsent. */
  messageId: string | null;
}

/** A push token document, addressed by its owner and id. */
export interface TokenRef {
  uid: string;
  id: string;
  token: string;
}

/** A stored push token document with its owner, as a save decides on it. */
export type StoredToken = PushTokenDoc & { uid: string };

/** What a transaction over an invitation read, for the handler to decide on. */
export interface InvitationState {
  invitation: Invitation | null;
  channel: Channel | null;
  /** The caller's users/{uid} document; null until the sign-up trigger has written it. */
  user: UserDoc | null;
  /** Whether the caller's balance is kept by the ledger already (practiceRepository.ts: users/{uid}.ledgerOpened). */
  ledgerOpened: boolean;
}

/** What the handler decided: the invitation and the caller's user document as they must be afterwards. */
export interface InvitationOutcome {
  invitation: Invitation;
  user: UserDoc;
  /**
   * An invitation "for a private consultation": the consultation it opens (created unless it exists) instead of
   * joining the invitation's channel.
   */
  privateChannel?: Channel;
  /** An activation's grant, as the ledger entry written with the balance (core/ledger.ts). */
  ledger?: LedgerEntry;
}

/** A new channel as the handler decided it (its id and handle are unique; the repository checks the handle). */
export interface NewChannelDoc {
  id: string;
  channelId: string;
  ownerId: string;
  title: string;
  description: string;
  createdAt: number;
}

/** A new invitation (status pending), written by functions only. */
export interface NewInvitationDoc {
  id: string;
  channelId: string;
  consultantId: string;
  inviteeEmail?: string;
  passes: number;
  credits: number;
  expiresAt: number;
  createdAt: number;
  privateConsultation?: boolean;
}

/** A user document with when it was created (the admin section's order). */
export interface UserRecord {
  user: UserDoc;
  createdAt: number;
}

/** Read receipts: receiptsRepository.ts. */
export interface Repository extends ReceiptsRepository {
  /** A new document id (Firestore's auto-id: 20 characters of [A-Za-z0-9], core/ids.ts). */
  newId(): string;
  getChannel(id: string): Promise<Channel | null>;
  getUser(uid: string): Promise<UserDoc | null>;
  /** Writes users/{uid} unless it exists (a trigger may run twice); true when this call created it. */
  createUserIfAbsent(user: UserDoc): Promise<boolean>;

  /** The offers granted to `uid` whose status is 'active' (expiry is the handler's to judge). */
  listOffersFor(uid: string): Promise<StoredOffer[]>;
  /** Deletes users/{uid}/pending/*; false when users/{uid} does not exist. */
  clearPending(uid: string): Promise<boolean>;
  /**
   * One more pending notification from `source` for each uid; answers each one's badge count after it, leaving out
   * the sources in `muted[uid]` (the channels that person has muted).
   */
  addPending(
    uids: readonly string[],
    source: string,
    muted?: Readonly<Record<string, ReadonlySet<string>>>,
  ): Promise<Record<string, number>>;

  /** users/{uid}/channelPrefs of these uids: each one's mutes by channel (ended ones included). */
  getMutes(uids: readonly string[]): Promise<Record<string, ChannelMutes>>;
  /** Sets (a number) or removes (null) users/{uid}/channelPrefs/{channelId}'s mute. */
  setMute(uid: string, channelId: string, mutedUntil: number | null): Promise<void>;

  /** The invitation, with its channel's title and its consultant's name. */
  getInvitation(id: string): Promise<Invitation | null>;
  /**
   * In one transaction: reads the invitation, its channel and the caller's user document, lets `decide` accept
   * (or throw), then stores the accepted invitation, adds the caller to the channel's members and stores the
   * user document `decide` answered. Two concurrent accepts cannot both succeed.
   */
  acceptInvitation(
    id: string,
    uid: string,
    decide: (state: InvitationState) => InvitationOutcome,
  ): Promise<InvitationOutcome>;
  /** Like acceptInvitation: stores the activated invitation and the user document with what it granted. */
  activateInvitation(
    id: string,
    uid: string,
    decide: (state: InvitationState) => InvitationOutcome,
  ): Promise<InvitationOutcome>;

  // Revoked sessions: revocations/{uid} ({revokedBefore}), which firestore.rules compare with a token's auth_time.
  /** When the account's sessions were last revoked (seconds, as an ID token's auth_time counts), or null. */
  getRevokedBefore(uid: string): Promise<number | null>;
  /** Records a revocation; a time before the stored one changes nothing (a revocation is never undone). */
  recordRevocation(uid: string, revokedBefore: number): Promise<void>;

  // Upload records: channels/{channelId}/uploads/{attachmentId}, written by the client before the bytes go to
  // Cloud Storage and claimed by the message that sends the file (firestore.rules, storage.rules).
  /** The record of an upload, or null when there is none. */
  getUpload(channelId: string, attachmentId: string): Promise<UploadRecord | null>;
  /** Deletes an upload's record; one already gone is fine. */
  deleteUpload(channelId: string, attachmentId: string): Promise<void>;
  /** The uploads no message took that were recorded before `cutoff` (epoch ms), in every channel. */
  listUnsentUploadsBefore(cutoff: number): Promise<UploadRecord[]>;

  // Attachments in Cloud Storage ---------------------------------------------------------------
  /** The channel's message that carries the attachment `attachmentId`, or null when none does. */
  findMessageWithAttachment(channelId: string, attachmentId: string): Promise<ChatMessage | null>;
  /**
   * Removes a message's attachment (its file is gone), stamping the change at `at` so that open windows get the
   * new version; `tombstone`: the message had nothing else, and becomes a deleted message.
   */
  dropMessageAttachment(
    channelId: string,
    messageId: string,
    change: { tombstone: boolean; at: number },
  ): Promise<void>;

  /**
   * The replies quoting a deleted message keep no words of it (core/replies.ts: an empty snippet), each stamped
   * with the server's time so that open windows get the new version. Answers how many.
   */
  scrubQuotesOf(channelId: string, messageId: string): Promise<number>;

  /** Corrects a message's stored sender name to the one the backend derives. */
  setMessageSenderName(channelId: string, messageId: string, senderName: string): Promise<void>;

  // ---------------------------------------------------------------------------------------------------
  /** Channels `uid` owns or is a member of. */
  listChannelsFor(uid: string): Promise<Channel[]>;
  /** channels/{id}.photos.{uid}: the person's face as the channel carries it (null: none). */
  setChannelPhoto(channelId: string, uid: string, photoURL: string | null): Promise<void>;
  /**
   * channels/{id}.names.{uid} and its title, for a private consultation whose participant `uid` now goes by
   * `name` (core/privateChannels.ts privateChannelAfterRename), in one transaction; false when nothing changed.
   */
  renamePrivateChannel(channelId: string, uid: string, name: string): Promise<boolean>;
  listAllChannels(): Promise<Channel[]>;
  /**
   * Creates channels/{id} and reserves its handle (channelHandles/{handle}) in one transaction; false, writing
   * nothing, when the handle is taken.
   */
  createChannel(channel: NewChannelDoc): Promise<boolean>;
  /**
   * In one transaction: answers channels/{channel.id} when it exists, else creates it and its member's record and
   * answers `channel` (private consultations: the id is the pair's, so two windows at once make one).
   */
  ensurePrivateChannel(channel: Channel): Promise<Channel>;
  /** In one transaction: reads the channel, lets `decide` answer its new title and description (or throw). */
  updateChannel(
    id: string,
    decide: (channel: Channel | null) => { title: string; description: string },
  ): Promise<Channel>;
  /** When each member joined (channels/{id}/members/{uid}); members without a record are left out. */
  memberJoinTimes(channelId: string): Promise<Record<string, number>>;
  /** The user documents of these uids that exist. */
  getUsers(uids: readonly string[]): Promise<Map<string, UserDoc>>;
  /** Every user document with its creation time. */
  listUsers(): Promise<UserRecord[]>;

  /** The channel's newest message in core/messages.ts order ((createdAt, id)), or null. */
  latestMessage(channelId: string): Promise<ChatMessage | null>;
  /** channels/{channelId}/messages/{messageId}, or null. */
  getMessage(channelId: string, messageId: string): Promise<ChatMessage | null>;
  /**
   * The channel's messages of one millisecond (stored times have sub-millisecond precision; a message's
   * createdAt is its time rounded down to the millisecond).
   */
  messagesAt(channelId: string, at: number): Promise<ChatMessage[]>;
  /**
   * Messages of the channel from the millisecond `from` on (all when null), and how many of those `senderId`
   * wrote.
   */
  countMessages(
    channelId: string,
    from: number | null,
    senderId: string,
  ): Promise<{ all: number; by: number }>;
  /**
   * users/{uid}/channelReads/{channelId} as a read mark: `{lastReadAt, lastReadId}`; a marker from before issue
   * #11 has no lastReadId (id ''), null when there is none.
   */
  getReadMark(uid: string, channelId: string): Promise<ReadMark | null>;
  /**
   * In one transaction: reads the caller's mark, lets `decide` answer the mark as it must be, and stores it when it
   * differs. Answers the mark as stored afterwards.
   */
  updateReadMark(
    uid: string,
    channelId: string,
    decide: (current: ReadMark | null) => ReadMark,
  ): Promise<ReadMark>;

  createInvitation(invitation: NewInvitationDoc): Promise<void>;
  /** A channel's invitations (names from its title and its consultant), each with when it was created. */
  listInvitationsForChannel(channelId: string): Promise<Array<{ invitation: Invitation; createdAt: number }>>;
  /** The pending invitations naming `email` (expired ones too), with their names and creation times. */
  listPendingInvitationsFor(email: string): Promise<Array<{ invitation: Invitation; createdAt: number }>>;

  createOffer(offer: StoredOffer): Promise<void>;
  /** Every offer (any status) of these channels. */
  listOffersForChannels(channelIds: readonly string[]): Promise<StoredOffer[]>;

  /**
   * In one transaction: reads users/{uid} and the channels they joined, lets `decide` answer the document as it
   * must be (or throw), and stores its role fields.
   */
  setRole(
    uid: string,
    decide: (user: UserDoc | null, joined: JoinedChannel[]) => UserDoc,
  ): Promise<UserRecord>;

  /**
   * In one transaction: reads `uid`'s token documents of `created.deviceId` and every document holding
   * `created.token` (any account's), lets `decide` choose (core/pushTokens.ts planTokenSave), deletes what it
   * removes, and answers the document it keeps, or stores `created` under `uid` and answers it.
   */
  saveDeviceToken(
    uid: string,
    created: PushTokenDoc,
    decide: (related: StoredToken[]) => TokenSavePlan<StoredToken>,
  ): Promise<PushTokenDoc>;
  /** The 'active' token documents of these users. */
  listActiveTokens(uids: readonly string[]): Promise<TokenRef[]>;
  deleteTokens(tokens: readonly Pick<TokenRef, 'uid' | 'id'>[]): Promise<void>;
  /** Deletes every token document whose lastUsed is before `cutoff` (epoch ms); answers how many. */
  deleteTokensUnusedSince(cutoff: number): Promise<number>;

  // Leaving (leavingRepository.ts) -------------------------------------------------------------
  /** What "Download my data" shows of `uid` beside the user document. */
  readAccountData(uid: string, normalizedEmail: string): Promise<AccountData>;
  /** The titles of the channels `uid` owns (private consultations included). */
  ownedChannelTitles(uid: string): Promise<string[]>;
  /**
   * Removes the account's documents (users/{uid} and everything under it, offers granted to them, their
   * memberships) and hands what stays (messages, invitations, private consultations) to the former member
   * (core/leaving.ts), messages stamped as changed at `at`.
   */
  deleteAccountData(uid: string, at: number): Promise<void>;

  // ---- missed-message email (handlers/missedMail.ts) ----
  /** Every channel with messages posted after `since` (epoch ms), with those messages, oldest first. */
  recentMessages(since: number): Promise<Array<{ channel: Channel; messages: ChatMessage[] }>>;
  /** missedMail/{uid}_{channelId}: what the last email covered and when it was sent; null when none yet. */
  getMissedMailState(uid: string, channelId: string): Promise<MissedMailState | null>;
  /**
   * In one transaction: when missedMail/{uid}_{channelId} is still as `expected` (another run did not get there
   * first), stores `next` and, if given, `mail` as a new mail/{id} document for the Trigger Email extension.
   * Answers whether it wrote.
   */
  recordMissedMail(
    uid: string,
    channelId: string,
    expected: MissedMailState | null,
    next: MissedMailState,
    mail: TriggerEmailDoc | null,
  ): Promise<boolean>;
  /** config/mailUnsubscribe's secret (base64url), made on first use (admin-only, firestore.rules). */
  unsubscribeSecret(): Promise<string>;
  /**
   * In one transaction: reads users/{uid}'s notification settings, lets `decide` answer new ones (or null: leave
   * them), and stores them. Answers whether it wrote.
   */
  updateNotificationSettings(
    uid: string,
    decide: (settings: NotificationSettings) => NotificationSettings | null,
  ): Promise<boolean>;

  // ---- message search (handlers/search.ts, docs/decisions/firebase.md) ----
  /** messageSearch/{channelId}_{messageId}: the message's index entry set, or removed (null). */
  writeSearchEntry(channelId: string, messageId: string, entry: SearchEntry | null): Promise<void>;
  /**
   * Every channel's messages in the order of their paths, after the path `after`, at most `limit`: the search
   * backfill's pages (a path names one message for good, so a page never skips or repeats one).
   */
  listMessagesByPath(
    after: string | null,
    limit: number,
  ): Promise<
    Array<{
      path: string;
      channelId: string;
      messageId: string;
      text: string;
      createdAt: number;
      deleted: boolean;
    }>
  >;
  /** Index entries set or removed (null) in one batched write. */
  writeSearchEntries(
    entries: ReadonlyArray<{ channelId: string; messageId: string; entry: SearchEntry | null }>,
  ): Promise<void>;
  /**
   * The entries of `channelIds` (at most 30) holding `token`, newest first by (createdAt, messageId), after the
   * cursor, at most `limit`.
   */
  findSearchEntries(query: {
    channelIds: readonly string[];
    token: string;
    after: MessageCursor | null;
    limit: number;
  }): Promise<Array<{ channelId: string; messageId: string; createdAt: number }>>;

  // ---- the storage quota (uploadsRepository.ts) ----
  /**
   * In one transaction: a kept upload of `uid` counted against their quota, once (users/{uid}/uploads/{id} and
   * users/{uid}.attachmentBytes). 'over' (with what was used) when it does not fit, 'no-account' when there is no
   * users/{uid}; nothing is written then, nor for one counted already.
   */
  countUpload(upload: UploadToCount): Promise<UploadCount>;
  /** In one transaction: an upload's object is gone, its room given back (nothing when it was never counted). */
  forgetUpload(uid: string, attachmentId: string): Promise<boolean>;
}

/** An upload to count against its uploader's quota (core/attachments.ts ATTACHMENT_QUOTA_BYTES). */
export interface UploadToCount {
  uid: string;
  attachmentId: string;
  channelId: string;
  size: number;
  quotaBytes: number;
  at: number;
}

export type UploadCount =
  { kind: 'counted' | 'already' | 'no-account' } | { kind: 'over'; usedBytes: number };

/** A mail/{id} document in the shape the Trigger Email extension (firestore-send-email) sends. */
export interface TriggerEmailDoc {
  to: string;
  message: {
    subject: string;
    text: string;
    html: string;
    /** A booking's calendar invitation (core/calendar.ts) travels as an .ics attachment. */
    attachments?: Array<{ filename: string; content: string; contentType: string }>;
  };
  headers?: Record<string, string>;
}

/** An account's data beside its user document, as the export shows it (core/leaving.ts AccountExportParts). */
export type AccountData = Omit<AccountExportParts, 'account' | 'offersIssued'>;

/** One FCM send's outcome, in the order the messages were given. */
export interface SendResult {
  success: boolean;
  /** FCM's error code, e.g. 'messaging/registration-token-not-registered'. */
  errorCode?: string;
}

export interface PushSender {
  send(messages: readonly FcmMessage[]): Promise<SendResult[]>;
}

/** An FCM message for one token (the Admin SDK's TokenMessage, narrowed to what QuPM sends). */
export interface FcmMessage {
  token: string;
  notification: { title: string; body: string };
  /** FCM data values are strings. */
  data: Record<string, string>;
  webpush: {
    headers: Record<string, string>;
    fcmOptions: { link: string };
  };
}

/** Firebase Auth, as far as functions/ reads it. */
export interface Accounts {
  /** The account as it is now (null once deleted): its email and display name. */
  lookup(
    uid: string,
  ): Promise<{ email: string | null; displayName: string | null; emailVerified?: boolean } | null>;
  /** Which of these accounts carry the isAdmin custom claim (spec §6). */
  admins(uids: readonly string[]): Promise<Set<string>>;
  /** Deletes the account; its refresh tokens go with it. */
  deleteAccount(uid: string): Promise<void>;
  /**
   * Ends every session of the account (Admin SDK revokeRefreshTokens); answers the second before
   * which its sessions are now revoked (the account's tokensValidAfterTime, read back).
   */
  revokeSessions(uid: string): Promise<number>;
  /**
   * The second before which the account's sessions are revoked (tokensValidAfterTime: moved by revokeSessions, a
   * password reset or change), by uid or by email; null when there is no such account.
   */
  revokedBefore(
    who: { uid: string } | { email: string },
  ): Promise<{ uid: string; revokedBefore: number } | null>;
  /**
   * Whether an ID token's session still stands (Admin SDK verifyIdToken(token, true)): false once its account's
   * refresh tokens were revoked after it was issued, or the account was disabled.
   */
  sessionStands(idToken: string): Promise<boolean>;
}

/** What every handler is given. */
/** An object of the bucket, as Cloud Storage lists it. */
export interface StoredFile {
  /** Its name, e.g. channels/{channelId}/attachments/{attachmentId}. */
  path: string;
  size: number;
  contentType: string | undefined;
  /** When it was created (epoch ms). */
  createdAt: number;
  /** Who uploaded it (its custom metadata, which storage.rules require of every attachment). */
  uploaderId?: string;
}

/** Cloud Storage for attachments: the Admin SDK's default bucket, which rules do not bind. */
export interface AttachmentFiles {
  /** Every object whose name starts with `prefix`. */
  list(prefix: string): Promise<StoredFile[]>;
  /** An object's bytes (an attachment is 10 MB at most; a larger object is never read). */
  read(path: string): Promise<Uint8Array>;
  /** Deletes an object; one already gone is fine. */
  delete(path: string): Promise<void>;
  /** Whether the object is there. */
  exists(path: string): Promise<boolean>;
}

/** A message's search index entry: its time (ms, as the message reads) and core/search.ts searchTokens. */
export interface SearchEntry {
  createdAt: number;
  tokens: string[];
}

export interface Deps {
  repo: Repository;
  /** The consulting practice (practiceRepository.ts): services, bookings, the ledger, housekeeping. */
  practice: PracticeRepository;
  push: PushSender;
  files: AttachmentFiles;
  accounts: Accounts;
  now(): number;
  /** The app's origin (https://…), for links in notifications. */
  appOrigin(): string;
}
