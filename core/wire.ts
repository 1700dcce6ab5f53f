// The embedded server's HTTP surface under /api (ARCHITECTURE.md "Wire formats"), shared by server/ and the
// local adapter so the two cannot drift. Bodies are JSON; errors are always an ErrorBody (core/errors.ts).
import type { AuthUser, Channel, ChannelPermissions, ChatMessage, Offer, UserDoc } from './model';
import type { ChannelMutes } from './mutes';

/** POST /api/auth/signin | /api/auth/refresh (sign-up starts no session). */
export interface SessionResponse {
  accessToken: string;
  refreshToken: string;
  user: AuthUser;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

/** The access token's claims (a JWT, HS256, signed by the server). */
export interface AccessTokenClaims {
  sub: string;
  email: string;
  isAdmin: boolean;
  iat: number;
  exp: number;
}

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const STREAM_TICKET_TTL_SECONDS = 60;

/**
 * The routes. `:uid`, `:id` are path params; every route but signup/signin/refresh/health and the mailed links'
 * (verify-email, password-reset) needs
 * `Authorization: Bearer <accessToken>`.
 */
export const API = {
  health: 'GET /api/health',
  signUp: 'POST /api/auth/signup', // signUpBody → { success: true }, alike for a new and a taken address
  signIn: 'POST /api/auth/signin', // signInBody → SessionResponse
  refresh: 'POST /api/auth/refresh', // refreshBody → SessionResponse (rotates; reuse revokes the family)
  signOut: 'POST /api/auth/signout', // refreshBody → { success: true }
  // issue #15 parts 4–5 -------------------------------------------------------------------------------------
  // → { sessions: SignedInSession[] } the caller's sessions that still stand, most recently used first, the
  // caller's own marked `current`
  listSessions: 'GET /api/auth/sessions',
  // → { success: true }: ends that session of the caller's (its live streams, its device's push token, its
  // access tokens at once); NOT_FOUND for an unknown, ended or someone else's session
  revokeSession: 'DELETE /api/auth/sessions/:id',
  // → { revoked: number }: "Sign out everywhere else", every session of the caller's but the one asking
  revokeOtherSessions: 'POST /api/auth/sessions/revoke-others',
  // passwordChangeBody {currentPassword, newPassword} → { success: true, revoked: number }: the current password
  // must be right (PERMISSION_DENIED 'wrong-password', rate-limited like sign-in); the other sessions end
  changePassword: 'POST /api/auth/password',
  // issue #15 parts 2–3 (no session unless said): the links QuPM mails
  emailVerification: 'GET /api/auth/verify-email', // (session) → { email, emailVerified }
  sendEmailVerification: 'POST /api/auth/verify-email/send', // (session) → { email, emailVerified }; mails a link unless verified
  verifyEmail: 'POST /api/auth/verify-email', // verifyEmailBody {token} → { email, emailVerified: true }
  requestPasswordReset: 'POST /api/auth/password-reset', // passwordResetBody {email} → { success: true } always
  // passwordResetConfirmBody {token, password} → { success: true, email }: every session of the account ends
  confirmPasswordReset: 'POST /api/auth/password-reset/confirm',
  // (session) emailChangeBody {password, newEmail} → { email }: mails the new address a /verify-email link; the
  // address changes when it is used, and the old one is told (issue #15 part 4)
  changeEmail: 'POST /api/auth/email',
  getUser: 'GET /api/users/:uid', // → UserDoc (own, or any for an admin); 404 when missing
  updateUser: 'PATCH /api/users/:uid', // profilePatchBody → UserDoc (own only)
  listTokens: 'GET /api/users/:uid/tokens', // tokensQuery → { tokens: PushTokenDoc[] } (own only)
  addToken: 'POST /api/users/:uid/tokens', // pushTokenCreateBody → PushTokenDoc
  touchToken: 'POST /api/users/:uid/tokens/:id/touch', // → PushTokenDoc with lastUsed = now
  deleteToken: 'DELETE /api/users/:uid/tokens/:id', // → { success: true }
  listChannels: 'GET /api/channels', // channelsQuery → { channels: Channel[] }
  getChannel: 'GET /api/channels/:id', // → Channel (owner, members, admin)
  // messagesQuery (before | after: a core/messages.ts cursor, limit) → { messages: ChatMessage[] } oldest first
  listMessages: 'GET /api/channels/:id/messages',
  // messageCreateBody {id?, text, attachmentId?} → ChatMessage; a repeated id of the caller's in this channel
  // answers the stored message and changes nothing; an id taken otherwise is ALREADY_EXISTS
  sendMessage: 'POST /api/channels/:id/messages',
  // issue #13: messagesQuery's changedAfter (a cursor of (version, id), core/messages.ts versionOf) lists the
  // messages edited or deleted after it, in that order: how a live subscriber catches up on changes.
  // messagePatchBody {text} → ChatMessage with editedAt: its sender, within 24 h (core/messageEdits.ts)
  editMessage: 'PATCH /api/channels/:id/messages/:messageId',
  // → ChatMessage, the tombstone (text '', deleted: true): its sender or the channel's owner; text removed
  deleteMessage: 'DELETE /api/channels/:id/messages/:messageId',
  // issue #13: the file's bytes as the body, `?name=` → core/attachments.ts Attachment (members only; the bytes
  // decide the type; up to 10 MB); sent with a message by its id
  uploadAttachment: 'POST /api/channels/:id/attachments',
  // → the bytes, to members only, with nosniff, a sandbox CSP, and inline (images) or attachment (documents)
  downloadAttachment: 'GET /api/channels/:id/attachments/:attachmentId',
  // issue #6 ------------------------------------------------------------------------------------------------
  channelOverview: 'GET /api/channels/overview', // → { channels: ChannelOverview[] } owned + joined, newest activity first
  createChannel: 'POST /api/channels', // channelCreateBody → Channel (consultants only; taken handle: ALREADY_EXISTS)
  updateChannel: 'PATCH /api/channels/:id', // channelPatchBody → Channel (owner only)
  listMembers: 'GET /api/channels/:id/members', // → { members: ChannelMember[] } (owner first; owner, members, admin)
  // markReadBody {messageId} → { success: true }: the caller's read mark moves up to that message, never back
  markRead: 'POST /api/channels/:id/read',
  // issue #13 part 6: the caller's mutes in force { mutes: { [channelId]: mutedUntil } }; muteBody {duration:
  // '1h' | '8h' | 'forever'} → ChannelMute; unmute → { success: true }. Only a channel the caller is in.
  listMutes: 'GET /api/mutes',
  muteChannel: 'PUT /api/channels/:id/mute',
  unmuteChannel: 'DELETE /api/channels/:id/mute',
  listChannelInvitations: 'GET /api/channels/:id/invitations', // → { invitations: Invitation[] } (owner, admin)
  createInvitation: 'POST /api/invitations', // invitationCreateBody → Invitation (the channel's owner)
  issueOffer: 'POST /api/offers', // offerCreateBody → IssuedOffer (channel owner, to a member; 1-100 %)
  listIssuedOffers: 'GET /api/offers/issued', // → { offers: IssuedOffer[] } the caller's, newest first
  adminUsers: 'GET /api/admin/users', // → { users: AdminUser[] } (isAdmin claim)
  adminSetRole: 'POST /api/admin/users/:uid/role', // roleBody → AdminUser (isAdmin claim; not for oneself)
  adminChannels: 'GET /api/admin/channels', // → { channels: AdminChannel[] } (isAdmin claim)
  // issue #13 part 5: privateChannelCreateBody {withUid, viaChannelId} → Channel (kind 'private'): the caller's
  // private consultation with someone they share viaChannelId with (its consultant, or a member of the caller's
  // channel); the existing one when there is one (one per pair)
  openPrivateChannel: 'POST /api/private-channels',
  // ----------------------------------------------------------------------------------------------------------
  // → { invitations: Invitation[] } the pending, unexpired ones naming the caller's email, newest first
  listMyInvitations: 'GET /api/invitations',
  getInvitation: 'GET /api/invitations/:id', // → Invitation
  // → InvitationPreview (no session: anyone with the link; core/invitations.ts says what it holds)
  previewInvitation: 'GET /api/invitations/:id/preview',
  acceptInvitation: 'POST /api/invitations/:id/accept', // → Invitation
  activateInvitation: 'POST /api/invitations/:id/activate', // → { invitation: Invitation, user: UserDoc }
  pushConfig: 'GET /api/push/config', // → { vapidPublicKey } (public; the key pushes are signed with)
  callable: 'POST /api/callable/:name', // { data } → { result } (Firebase callable protocol)
  streamTicket: 'POST /api/stream/ticket', // → { ticket } single use, 60 s
  stream: 'GET /api/stream?ticket=…', // Server-Sent Events, see StreamEvent
  // issue #15 part 7 (core/leaving.ts), the account itself only: → AccountExport as a file
  // (Content-Disposition: attachment; filename="qupm-data-YYYY-MM-DD.json")
  exportAccount: 'GET /api/users/:uid/export',
  // accountDeleteBody {password} → { success: true }; a consultant who owns channels is FAILED_PRECONDITION
  deleteAccount: 'DELETE /api/users/:uid',
  // issue #15 part 6: one-click unsubscribe from missed-message email (RFC 8058), no session, ?token=… from the
  // email. GET → an HTML page asking to confirm (never unsubscribes); POST with the form body
  // List-Unsubscribe=One-Click → an HTML page, the account's 'email' delivery channel off. A forged token, or a
  // POST without that body: a 400 page, nothing changed. core/missedMail.ts UNSUBSCRIBE_ROUTE.
  unsubscribePage: 'GET /api/mail/unsubscribe',
  unsubscribe: 'POST /api/mail/unsubscribe',
} as const;

export interface CallableResults {
  check_channel_permissions: ChannelPermissions;
  get_user_active_offers: { offers: Offer[] };
  clear_pending_notifications: { success: boolean };
}

/**
 * Server-Sent Events on /api/stream: `id: <n>` (increasing within the server's run), `event: <type>` and
 * `data: <JSON>`; a comment line every 25 s. A stream ends with a `closing` event when its session ends: at
 * sign-out or revocation ('signed-out', do not reconnect with this session) or when the access token it was
 * opened with expires ('expired', reconnect at once with a new ticket). A reader more than
 * STREAM_MAX_BUFFERED_BYTES behind is dropped without one. Every reconnect resyncs (src/backend/local/stream.ts).
 */
export type StreamEvent =
  /** A new message, or a new version of one (edited, deleted: issue #13); the later version wins. */
  | { type: 'message'; data: { message: ChatMessage } }
  | { type: 'user'; data: { user: UserDoc } }
  | { type: 'channel'; data: { channel: Channel } }
  /** To the user an offer was issued to (and its consultant): offers changed, read them again. */
  | { type: 'offers'; data: { changed: true } }
  /**
   * To whoever is signed in with an invitation's invitee email: the invitations addressed to them changed (one
   * was created, accepted or activated); read them again. An invitation for anyone with the link sends none.
   */
  | { type: 'invitations'; data: { changed: true } }
  /** To every stream of one person: their mutes in force changed (issue #13 part 6); these are all of them now. */
  | { type: 'mutes'; data: { mutes: ChannelMutes } }
  /** The last event of a stream that the server ends. */
  | { type: 'closing'; data: { reason: StreamClosingReason } };

export type StreamClosingReason = 'signed-out' | 'expired';

/** A stream whose unsent bytes pass this is closed: a slow reader never grows the server (it resyncs). */
export const STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;
