// The embedded server's HTTP surface under /api (ARCHITECTURE.md "Wire formats"): the route table, one entry per
// route with its method, path, inputs (core/schemas.ts, by name), answer (core/answers.ts), who may call it and
// its rate-limit class. The server registers every route from it (server/api.ts) and the local adapter calls
// every route through it (src/backend/local/http.ts callRoute), so the two cannot drift: a route the server does
// not implement, or one the client calls that is not here, is a type error. Bodies are JSON; errors are always
// an ErrorBody (core/errors.ts).
//
// Inputs are named, not imported: the request schemas are classic zod, server-side only, and this table ships in
// the local adapter's chunk. The names are checked against core/schemas.ts by the type below.
import type { z } from 'zod';
import { ANSWERS } from './answers';
import type { CALLABLE_RESULTS } from './answers';
import type * as InputSchemas from './schemas';
import type { ChannelMutes } from './mutes';
import type { Receipt } from './receipts';
import type { Booking, Channel, ChatMessage, UserDoc } from './model';

export type { SessionResponse } from './answers';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const STREAM_TICKET_TTL_SECONDS = 60;

type Inputs = typeof InputSchemas;
/** A request schema of core/schemas.ts, by its exported name. */
export type InputName = {
  [K in keyof Inputs]: Inputs[K] extends z.ZodType ? K : never;
}[keyof Inputs];

/**
 * Who may call a route: anyone (`public`: no session is read), a signed-in person (a valid bearer access token
 * of a live session of an existing account), or an admin (the token's isAdmin claim, checked after the
 * validation and the rate limit, as every ownership check is).
 */
export type Access = 'public' | 'signedIn' | 'admin';

/**
 * Which limits a route counts against (server/rateLimits.ts holds the numbers and the words):
 * - `signIn`: per IP and per IP + the body's email (sign-in, sign-up)
 * - `passwordCheck`: as signIn, with the caller's email (a password change: a guessed password costs the same)
 * - `emailChange`: per IP + the caller's email, and the mail limits for the new address
 * - `accountDelete`: 10 password attempts a minute per IP and account
 * - `linkUse`: per IP (using a mailed link counts as a sign-in attempt)
 * - `session`: per IP (refresh, sign-out, ending sessions)
 * - `mailToCaller`, `mailToAddress`: mailed links asked for, per IP and per address (the caller's, the body's)
 * - `writes`: per user (callables, accept and activate, channel, invitation, offer and role writes)
 * - `messages`: per user (sends, edits, deletions)
 * - `uploads`: per user (each up to 10 MB)
 * - `reads`: per user (every other signed-in request)
 * - `typing`: per user (typing signals: core/receipts.ts TYPING_SIGNALS_PER_MINUTE)
 * - `preview`: per IP (invitation previews, no session)
 * - `unsubscribe`: per IP (the one-click unsubscribe pages)
 * - `none`: health, the push key, the stream itself (its ticket was counted)
 */
export type RateClass =
  | 'signIn'
  | 'signUp'
  | 'passwordCheck'
  | 'emailChange'
  | 'accountDelete'
  | 'linkUse'
  | 'session'
  | 'mailToCaller'
  | 'mailToAddress'
  | 'writes'
  | 'messages'
  | 'uploads'
  | 'reads'
  | 'typing'
  | 'preview'
  | 'unsubscribe'
  | 'none';

/**
 * How a route answers. `json` (the rest): a JSON document of its answer schema. Special where they must be:
 * `upload` takes the file's raw bytes as its body (session, limits and membership checked before the body is
 * read); `download` answers a file's bytes; `stream` is Server-Sent Events; `page` is an HTML page (the mailed
 * unsubscribe link, RFC 8058) that reads a form body.
 */
export type RouteKind = 'json' | 'upload' | 'download' | 'stream' | 'page';

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under /api; `:name` segments are path params. */
  path: `/api/${string}`;
  access: Access;
  rate: RateClass;
  kind: RouteKind;
  params?: InputName;
  query?: InputName;
  body?: InputName;
  /** The answer's schema (a `json` or `upload` route's; a `download` or `stream` route has none). */
  answer?: z.core.$ZodType;
}

const json = { kind: 'json' } as const;

/**
 * The routes. Answers are core/answers.ts's ANSWERS; "(owner)", "(members)" etc. say who the service lets do it
 * beyond the access column (ownership is decided in server/services, after the rate limit).
 */
export const ROUTES = {
  health: {
    ...json,
    method: 'GET',
    path: '/api/health',
    access: 'public',
    rate: 'none',
    answer: ANSWERS.health,
  },
  signUp: {
    ...json,
    method: 'POST',
    path: '/api/auth/signup',
    access: 'public',
    // Sign-in's limits, and a mailed link's: it mails the address whether or not it has an account.
    rate: 'signUp',
    body: 'signUpBody',
    // Alike for a new and a taken address: the mailed link creates the account (no session here).
    answer: ANSWERS.success,
  },
  signIn: {
    ...json,
    method: 'POST',
    path: '/api/auth/signin',
    access: 'public',
    rate: 'signIn',
    body: 'signInBody',
    answer: ANSWERS.session,
  },
  // Rotates the refresh token; a rotated one presented again revokes its family.
  refresh: {
    ...json,
    method: 'POST',
    path: '/api/auth/refresh',
    access: 'public',
    rate: 'session',
    body: 'refreshBody',
    answer: ANSWERS.session,
  },
  // Revokes the caller's own family only.
  signOut: {
    ...json,
    method: 'POST',
    path: '/api/auth/signout',
    access: 'signedIn',
    rate: 'session',
    body: 'refreshBody',
    answer: ANSWERS.success,
  },
  // The caller's sessions that still stand, most recently used first, the caller's own marked `current`.
  listSessions: {
    ...json,
    method: 'GET',
    path: '/api/auth/sessions',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.sessions,
  },
  // Ends one session of the caller's (its streams, its device's push token, its access tokens at once);
  // NOT_FOUND for an unknown, ended or someone else's session.
  revokeSession: {
    ...json,
    method: 'DELETE',
    path: '/api/auth/sessions/:id',
    access: 'signedIn',
    rate: 'session',
    params: 'idParams',
    answer: ANSWERS.success,
  },
  // "Sign out everywhere else".
  revokeOtherSessions: {
    ...json,
    method: 'POST',
    path: '/api/auth/sessions/revoke-others',
    access: 'signedIn',
    rate: 'session',
    answer: ANSWERS.revoked,
  },
  // The current password must be right (PERMISSION_DENIED 'wrong-password'); the other sessions end.
  changePassword: {
    ...json,
    method: 'POST',
    path: '/api/auth/password',
    access: 'signedIn',
    rate: 'passwordCheck',
    body: 'passwordChangeBody',
    answer: ANSWERS.passwordChanged,
  },
  // The links QuPM mails (core/emailLinks.ts).
  emailVerification: {
    ...json,
    method: 'GET',
    path: '/api/auth/verify-email',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.emailVerification,
  },
  // Mails a link unless the address is confirmed already.
  sendEmailVerification: {
    ...json,
    method: 'POST',
    path: '/api/auth/verify-email/send',
    access: 'signedIn',
    rate: 'mailToCaller',
    answer: ANSWERS.emailVerification,
  },
  verifyEmail: {
    ...json,
    method: 'POST',
    path: '/api/auth/verify-email',
    access: 'public',
    rate: 'linkUse',
    body: 'verifyEmailBody',
    answer: ANSWERS.emailVerification,
  },
  // The same answer whether an account has the address or not.
  requestPasswordReset: {
    ...json,
    method: 'POST',
    path: '/api/auth/password-reset',
    access: 'public',
    rate: 'mailToAddress',
    body: 'passwordResetBody',
    answer: ANSWERS.success,
  },
  // Every session of the account ends.
  confirmPasswordReset: {
    ...json,
    method: 'POST',
    path: '/api/auth/password-reset/confirm',
    access: 'public',
    rate: 'linkUse',
    body: 'passwordResetConfirmBody',
    answer: ANSWERS.passwordReset,
  },
  // Mails the new address a /verify-email link; the address changes when it is used, and the old one is told.
  changeEmail: {
    ...json,
    method: 'POST',
    path: '/api/auth/email',
    access: 'signedIn',
    rate: 'emailChange',
    body: 'emailChangeBody',
    answer: ANSWERS.emailChange,
  },
  // Own, or any for an admin; NOT_FOUND when missing.
  getUser: {
    ...json,
    method: 'GET',
    path: '/api/users/:uid',
    access: 'signedIn',
    rate: 'reads',
    params: 'uidParams',
    answer: ANSWERS.user,
  },
  // Own only.
  updateUser: {
    ...json,
    method: 'PATCH',
    path: '/api/users/:uid',
    access: 'signedIn',
    rate: 'reads',
    params: 'uidParams',
    body: 'profilePatchBody',
    answer: ANSWERS.user,
  },
  // Own only: the picture's raw bytes (core/photos.ts: WebP, PNG or JPEG by the bytes, at most 512 KB).
  setPhoto: {
    kind: 'upload',
    method: 'POST',
    path: '/api/users/:uid/photo',
    access: 'signedIn',
    rate: 'uploads',
    params: 'uidParams',
    answer: ANSWERS.user,
  },
  // Own only: initials from then on.
  removePhoto: {
    ...json,
    method: 'DELETE',
    path: '/api/users/:uid/photo',
    access: 'signedIn',
    rate: 'writes',
    params: 'uidParams',
    answer: ANSWERS.user,
  },
  // Anyone holding the URL (an unguessable id, new with each upload: cached for good, `<img src>` needs no token).
  // No rate class: a list of faces loads at once, and each is a primary-key read a browser asks for once.
  readPhoto: {
    kind: 'download',
    method: 'GET',
    path: '/api/photos/:photoId',
    access: 'public',
    rate: 'none',
    params: 'photoParams',
  },
  listTokens: {
    ...json,
    method: 'GET',
    path: '/api/users/:uid/tokens',
    access: 'signedIn',
    rate: 'reads',
    params: 'uidParams',
    query: 'tokensQuery',
    answer: ANSWERS.tokens,
  },
  // One document per (user, device), decided by core/pushTokens.ts planTokenSave.
  addToken: {
    ...json,
    method: 'POST',
    path: '/api/users/:uid/tokens',
    access: 'signedIn',
    rate: 'reads',
    params: 'uidParams',
    body: 'pushTokenCreateBody',
    answer: ANSWERS.token,
  },
  // lastUsed = now.
  touchToken: {
    ...json,
    method: 'POST',
    path: '/api/users/:uid/tokens/:id/touch',
    access: 'signedIn',
    rate: 'reads',
    params: 'tokenParams',
    answer: ANSWERS.token,
  },
  deleteToken: {
    ...json,
    method: 'DELETE',
    path: '/api/users/:uid/tokens/:id',
    access: 'signedIn',
    rate: 'reads',
    params: 'tokenParams',
    answer: ANSWERS.success,
  },
  // `mine=true`, or one channel the caller may read by its handle (`channelId=…&limit=1`).
  listChannels: {
    ...json,
    method: 'GET',
    path: '/api/channels',
    access: 'signedIn',
    rate: 'reads',
    query: 'channelsQuery',
    answer: ANSWERS.channels,
  },
  // Owned + joined with the last message and the unread count, newest activity first.
  channelOverview: {
    ...json,
    method: 'GET',
    path: '/api/channels/overview',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.overview,
  },
  // Consultants only; a taken handle is ALREADY_EXISTS.
  createChannel: {
    ...json,
    method: 'POST',
    path: '/api/channels',
    access: 'signedIn',
    rate: 'writes',
    body: 'channelCreateBody',
    answer: ANSWERS.channel,
  },
  // Owner, members, admins.
  getChannel: {
    ...json,
    method: 'GET',
    path: '/api/channels/:id',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.channel,
  },
  // The owner.
  updateChannel: {
    ...json,
    method: 'PATCH',
    path: '/api/channels/:id',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'channelPatchBody',
    answer: ANSWERS.channel,
  },
  // Owner first; owner, members, admins.
  listMembers: {
    ...json,
    method: 'GET',
    path: '/api/channels/:id/members',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.members,
  },
  // The caller's read mark moves up to that message, never back.
  markRead: {
    ...json,
    method: 'POST',
    path: '/api/channels/:id/read',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    body: 'markReadBody',
    answer: ANSWERS.success,
  },
  // Read receipts and typing (core/receipts.ts): the other participants' marks the caller may see (none when
  // either side turned receipts off); the caller's device got up to that message; the caller is typing (fanned
  // out live, never stored); whether the caller shares receipts.
  listReceipts: {
    ...json,
    method: 'GET',
    path: '/api/channels/:id/receipts',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.receipts,
  },
  markDelivered: {
    ...json,
    method: 'POST',
    path: '/api/channels/:id/delivered',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    body: 'markReadBody',
    answer: ANSWERS.success,
  },
  sendTyping: {
    ...json,
    method: 'POST',
    path: '/api/channels/:id/typing',
    access: 'signedIn',
    rate: 'typing',
    params: 'idParams',
    answer: ANSWERS.success,
  },
  getReceiptSettings: {
    ...json,
    method: 'GET',
    path: '/api/receipts/settings',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.receiptSettings,
  },
  setReceiptSettings: {
    ...json,
    method: 'PUT',
    path: '/api/receipts/settings',
    access: 'signedIn',
    rate: 'writes',
    body: 'receiptSettingsBody',
    answer: ANSWERS.receiptSettings,
  },
  // The owner, admins.
  listChannelInvitations: {
    ...json,
    method: 'GET',
    path: '/api/channels/:id/invitations',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.invitations,
  },
  // Oldest first: no cursor, the newest `limit`; `before`/`after` a core/messages.ts cursor; `changedAfter` a
  // (version, id) cursor: the messages edited or deleted after it, in that order.
  listMessages: {
    ...json,
    method: 'GET',
    path: '/api/channels/:id/messages',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    query: 'messagesQuery',
    answer: ANSWERS.messages,
  },
  // A repeated id of the caller's in this channel answers the stored message and changes nothing; an id taken
  // otherwise is ALREADY_EXISTS.
  sendMessage: {
    ...json,
    method: 'POST',
    path: '/api/channels/:id/messages',
    access: 'signedIn',
    rate: 'messages',
    params: 'idParams',
    body: 'messageCreateBody',
    answer: ANSWERS.message,
  },
  // Its sender, within 24 h (core/messageEdits.ts).
  editMessage: {
    ...json,
    method: 'PATCH',
    path: '/api/channels/:id/messages/:messageId',
    access: 'signedIn',
    rate: 'messages',
    params: 'messageParams',
    body: 'messagePatchBody',
    answer: ANSWERS.message,
  },
  // The tombstone (text '', deleted: true): its sender or the channel's owner.
  deleteMessage: {
    ...json,
    method: 'DELETE',
    path: '/api/channels/:id/messages/:messageId',
    access: 'signedIn',
    rate: 'messages',
    params: 'messageParams',
    answer: ANSWERS.message,
  },
  // The caller's reaction to a message (core/reactions.ts): set, replaced, or taken back with `emoji: null`.
  reactToMessage: {
    ...json,
    method: 'PUT',
    path: '/api/channels/:id/messages/:messageId/reaction',
    access: 'signedIn',
    rate: 'messages',
    params: 'messageParams',
    body: 'reactionBody',
    answer: ANSWERS.message,
  },
  // The file's bytes as the body, `?name=`: members only; the bytes decide the type; up to 10 MB.
  uploadAttachment: {
    kind: 'upload',
    method: 'POST',
    path: '/api/channels/:id/attachments',
    access: 'signedIn',
    rate: 'uploads',
    params: 'idParams',
    query: 'uploadQuery',
    answer: ANSWERS.attachment,
  },
  // The bytes, to members only, with nosniff, a sandbox CSP, and inline (images) or attachment (documents).
  downloadAttachment: {
    kind: 'download',
    method: 'GET',
    path: '/api/channels/:id/attachments/:attachmentId',
    access: 'signedIn',
    rate: 'reads',
    params: 'fileParams',
  },
  // The caller's mutes in force; muting and unmuting a channel the caller is in.
  listMutes: {
    ...json,
    method: 'GET',
    path: '/api/mutes',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.mutes,
  },
  muteChannel: {
    ...json,
    method: 'PUT',
    path: '/api/channels/:id/mute',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    body: 'muteBody',
    answer: ANSWERS.mute,
  },
  unmuteChannel: {
    ...json,
    method: 'DELETE',
    path: '/api/channels/:id/mute',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.success,
  },
  // The channel's owner.
  createInvitation: {
    ...json,
    method: 'POST',
    path: '/api/invitations',
    access: 'signedIn',
    rate: 'writes',
    body: 'invitationCreateBody',
    answer: ANSWERS.invitation,
  },
  // The pending, unexpired ones naming the caller's (confirmed) email, newest first.
  listMyInvitations: {
    ...json,
    method: 'GET',
    path: '/api/invitations',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.invitations,
  },
  getInvitation: {
    ...json,
    method: 'GET',
    path: '/api/invitations/:id',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.invitation,
  },
  // Anyone with the link (core/invitations.ts says what it holds).
  previewInvitation: {
    ...json,
    method: 'GET',
    path: '/api/invitations/:id/preview',
    access: 'public',
    rate: 'preview',
    params: 'idParams',
    answer: ANSWERS.invitationPreview,
  },
  acceptInvitation: {
    ...json,
    method: 'POST',
    path: '/api/invitations/:id/accept',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    answer: ANSWERS.invitation,
  },
  activateInvitation: {
    ...json,
    method: 'POST',
    path: '/api/invitations/:id/activate',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    answer: ANSWERS.activation,
  },
  // The channel's owner, to a member; 1-100 %.
  issueOffer: {
    ...json,
    method: 'POST',
    path: '/api/offers',
    access: 'signedIn',
    rate: 'writes',
    body: 'offerCreateBody',
    answer: ANSWERS.issuedOffer,
  },
  // The caller's, newest first.
  listIssuedOffers: {
    ...json,
    method: 'GET',
    path: '/api/offers/issued',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.issuedOffers,
  },
  adminUsers: {
    ...json,
    method: 'GET',
    path: '/api/admin/users',
    access: 'admin',
    rate: 'reads',
    answer: ANSWERS.adminUsers,
  },
  // Not for oneself.
  adminSetRole: {
    ...json,
    method: 'POST',
    path: '/api/admin/users/:uid/role',
    access: 'admin',
    rate: 'writes',
    params: 'uidParams',
    body: 'roleBody',
    answer: ANSWERS.adminUser,
  },
  adminChannels: {
    ...json,
    method: 'GET',
    path: '/api/admin/channels',
    access: 'admin',
    rate: 'reads',
    answer: ANSWERS.adminChannels,
  },
  // The caller's private consultation with someone they share viaChannelId with (its consultant, or a member of
  // the caller's channel); the existing one when there is one (one per pair).
  openPrivateChannel: {
    ...json,
    method: 'POST',
    path: '/api/private-channels',
    access: 'signedIn',
    rate: 'writes',
    body: 'privateChannelCreateBody',
    answer: ANSWERS.channel,
  },
  // The key pushes are signed with (public by design).
  pushConfig: {
    ...json,
    method: 'GET',
    path: '/api/push/config',
    access: 'public',
    rate: 'none',
    answer: ANSWERS.pushConfig,
  },
  // Firebase's callable protocol: { data } → { result } (CALLABLE_RESULTS), or as one server-sent event.
  callable: {
    ...json,
    method: 'POST',
    path: '/api/callable/:name',
    access: 'signedIn',
    rate: 'writes',
    params: 'callableParams',
    body: 'callableEnvelope',
    answer: ANSWERS.callable,
  },
  // Always INVALID_ARGUMENT (a function is called with POST), never an unknown address.
  callableByGet: {
    ...json,
    method: 'GET',
    path: '/api/callable/:name',
    access: 'public',
    rate: 'none',
    answer: ANSWERS.callable,
  },
  // Single use, 60 s: EventSource cannot send a bearer token.
  streamTicket: {
    ...json,
    method: 'POST',
    path: '/api/stream/ticket',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.ticket,
  },
  // Server-Sent Events (StreamEvent below); the ticket is the session.
  stream: {
    kind: 'stream',
    method: 'GET',
    path: '/api/stream',
    access: 'public',
    rate: 'none',
    query: 'streamQuery',
  },
  // The account itself only: its AccountExport as a file (qupm-data-YYYY-MM-DD.json).
  exportAccount: {
    ...json,
    method: 'GET',
    path: '/api/users/:uid/export',
    access: 'signedIn',
    rate: 'reads',
    params: 'uidParams',
    answer: ANSWERS.accountExport,
  },
  // The account itself, with its password; a consultant who owns channels is FAILED_PRECONDITION.
  deleteAccount: {
    ...json,
    method: 'DELETE',
    path: '/api/users/:uid',
    access: 'signedIn',
    rate: 'accountDelete',
    params: 'uidParams',
    body: 'accountDeleteBody',
    answer: ANSWERS.success,
  },
  // One-click unsubscribe from missed-message email (RFC 8058, core/missedMail.ts), `?token=…` from the email.
  // GET: a page asking to confirm (never unsubscribes: mail scanners follow links); POST with the form body
  // List-Unsubscribe=One-Click: the account's 'email' delivery channel off. A forged token, or a POST without
  // that body: a 400 page, nothing changed.
  unsubscribePage: {
    kind: 'page',
    method: 'GET',
    path: '/api/mail/unsubscribe',
    access: 'public',
    rate: 'unsubscribe',
  },
  unsubscribe: {
    kind: 'page',
    method: 'POST',
    path: '/api/mail/unsubscribe',
    access: 'public',
    rate: 'unsubscribe',
  },
  // The consultant's services (a consultant, their clients, admins; archived ones to the consultant alone).
  listServices: {
    ...json,
    method: 'GET',
    path: '/api/consultants/:uid/services',
    access: 'signedIn',
    rate: 'reads',
    params: 'uidParams',
    answer: ANSWERS.services,
  },
  // A consultant's new service; its operation id makes a repeat change nothing.
  createService: {
    ...json,
    method: 'POST',
    path: '/api/services',
    access: 'signedIn',
    rate: 'writes',
    body: 'serviceCreateBody',
    answer: ANSWERS.service,
  },
  // Its consultant: edit, archive (status 'archived') or restore it.
  updateService: {
    ...json,
    method: 'PATCH',
    path: '/api/services/:id',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'servicePatchBody',
    answer: ANSWERS.service,
  },
  // A consultant's weekly hours and time zone (null: none set), to whoever may see their services.
  getAvailability: {
    ...json,
    method: 'GET',
    path: '/api/consultants/:uid/hours',
    access: 'signedIn',
    rate: 'reads',
    params: 'uidParams',
    answer: ANSWERS.availability,
  },
  // The caller's own weekly hours (consultants only).
  setAvailability: {
    ...json,
    method: 'PUT',
    path: '/api/hours',
    access: 'signedIn',
    rate: 'writes',
    body: 'availabilityBody',
    answer: ANSWERS.hours,
  },
  // A service's free times between from and to (epoch ms, at most 31 days apart).
  listFreeSlots: {
    ...json,
    method: 'GET',
    path: '/api/free-slots',
    access: 'signedIn',
    rate: 'reads',
    query: 'freeSlotsRouteQuery',
    answer: ANSWERS.freeSlots,
  },
  // A client books: the price held, the time taken, the offer used (core/bookings.ts planRequest).
  requestBooking: {
    ...json,
    method: 'POST',
    path: '/api/bookings',
    access: 'signedIn',
    rate: 'writes',
    body: 'bookingRequestBody',
    answer: ANSWERS.booking,
  },
  // The caller's bookings as client and consultant: upcoming soonest first, then past.
  listMyBookings: {
    ...json,
    method: 'GET',
    path: '/api/bookings',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.bookings,
  },
  // Its client, its consultant, admins.
  getBooking: {
    ...json,
    method: 'GET',
    path: '/api/bookings/:id',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.booking,
  },
  // The steps on a booking (core/bookings.ts), each once per operation id: its consultant confirms, declines,
  // proposes another time, marks it done or refunds it; its client accepts or declines a proposal; either cancels.
  confirmBooking: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/confirm',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'operationBody',
    answer: ANSWERS.booking,
  },
  declineBooking: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/decline',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'operationBody',
    answer: ANSWERS.booking,
  },
  proposeBookingTime: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/propose',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'bookingTimeBody',
    answer: ANSWERS.booking,
  },
  acceptProposedTime: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/proposal/accept',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'operationBody',
    answer: ANSWERS.booking,
  },
  declineProposedTime: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/proposal/decline',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'operationBody',
    answer: ANSWERS.booking,
  },
  cancelBooking: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/cancel',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'operationBody',
    answer: ANSWERS.booking,
  },
  completeBooking: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/complete',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'operationBody',
    answer: ANSWERS.booking,
  },
  refundBooking: {
    ...json,
    method: 'POST',
    path: '/api/bookings/:id/refund',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'operationBody',
    answer: ANSWERS.booking,
  },
  // A consultant to their client, or an admin to anyone (core/ledger.ts assertCanGrant): the ledger entry.
  grantBalance: {
    ...json,
    method: 'POST',
    path: '/api/ledger/grants',
    access: 'signedIn',
    rate: 'writes',
    body: 'grantBody',
    answer: ANSWERS.ledgerEntry,
  },
  // The caller's ledger, newest first, with the balance it sums to.
  listMyLedger: {
    ...json,
    method: 'GET',
    path: '/api/ledger',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.ledger,
  },
  // What the caller's services earned and which offers were used.
  getEarnings: {
    ...json,
    method: 'GET',
    path: '/api/earnings',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.earnings,
  },
  // Every offer made to the caller, with its service and its state now.
  listMyOffers: {
    ...json,
    method: 'GET',
    path: '/api/offers',
    access: 'signedIn',
    rate: 'reads',
    answer: ANSWERS.receivedOffers,
  },
  // Its consultant (a repeat changes nothing).
  withdrawOffer: {
    ...json,
    method: 'POST',
    path: '/api/offers/:id/withdraw',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    answer: ANSWERS.storedOffer,
  },
  // What archiving and deleting the channel would do, said first (its owner, admins).
  describeChannelRemoval: {
    ...json,
    method: 'GET',
    path: '/api/channels/:id/removal',
    access: 'signedIn',
    rate: 'reads',
    params: 'idParams',
    answer: ANSWERS.channelRemoval,
  },
  // The owner: read-only until opened again (DELETE).
  archiveChannel: {
    ...json,
    method: 'POST',
    path: '/api/channels/:id/archive',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    answer: ANSWERS.channel,
  },
  unarchiveChannel: {
    ...json,
    method: 'DELETE',
    path: '/api/channels/:id/archive',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    answer: ANSWERS.channel,
  },
  // The owner, for good: its messages, files, memberships, invitations and offers (bookings stay).
  deleteChannel: {
    ...json,
    method: 'DELETE',
    path: '/api/channels/:id',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    answer: ANSWERS.success,
  },
  // The owner removes a member (their messages stay).
  removeMember: {
    ...json,
    method: 'DELETE',
    path: '/api/channels/:id/members/:uid',
    access: 'signedIn',
    rate: 'writes',
    params: 'memberParams',
    answer: ANSWERS.channel,
  },
  // The channel's owner; a repeat changes nothing.
  revokeInvitation: {
    ...json,
    method: 'POST',
    path: '/api/invitations/:id/revoke',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    answer: ANSWERS.invitation,
  },
  // The owner or an admin hands the channel to another consultant.
  handOverChannel: {
    ...json,
    method: 'POST',
    path: '/api/channels/:id/hand-over',
    access: 'signedIn',
    rate: 'writes',
    params: 'idParams',
    body: 'handOverRouteBody',
    answer: ANSWERS.channel,
  },
  // The caller's own channels (owner or member), or one of them: hits newest first (core/search.ts). A body, not
  // a query string: a long text is refused with words, never by the URL's length.
  searchMessages: {
    ...json,
    method: 'POST',
    path: '/api/search',
    access: 'signedIn',
    rate: 'reads',
    body: 'searchBody',
    answer: ANSWERS.searchPage,
  },
} as const satisfies Record<string, RouteSpec>;

export type Routes = typeof ROUTES;
export type RouteName = keyof Routes;
/** The routes that answer a JSON document of their answer schema. */
export type JsonRouteName = { [K in RouteName]: Routes[K]['kind'] extends 'json' ? K : never }[RouteName];

type Named<K extends RouteName, F extends 'params' | 'query' | 'body'> =
  Routes[K] extends Record<F, infer N extends InputName> ? Inputs[N] : undefined;
/** A route's inputs as the server's handler gets them: validated, defaults filled in. */
export type RouteParams<K extends RouteName> =
  Named<K, 'params'> extends z.ZodType ? z.output<Named<K, 'params'>> : undefined;
export type RouteQuery<K extends RouteName> =
  Named<K, 'query'> extends z.ZodType ? z.output<Named<K, 'query'>> : undefined;
export type RouteBody<K extends RouteName> =
  Named<K, 'body'> extends z.ZodType ? z.output<Named<K, 'body'>> : undefined;
/** A route's inputs as a client sends them. */
export type RouteQueryInput<K extends RouteName> =
  Named<K, 'query'> extends z.ZodType ? z.input<Named<K, 'query'>> : undefined;
export type RouteBodyInput<K extends RouteName> =
  Named<K, 'body'> extends z.ZodType ? z.input<Named<K, 'body'>> : undefined;
/** What a route answers (the model type its answer schema reads into). */
export type RouteAnswer<K extends RouteName> = Routes[K] extends { answer: infer A extends z.core.$ZodType }
  ? z.output<A>
  : never;

/** The `:name` segments of a path, as strings. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : unknown;

/** Every route as `METHOD /path` (the fuzz test walks them). */
export const API = Object.fromEntries(
  Object.entries(ROUTES).map(([name, route]) => [name, `${route.method} ${route.path}`]),
) as { [K in RouteName]: `${Routes[K]['method']} ${Routes[K]['path']}` };

/** The callables' results, by name (spec §7). */
export type CallableResults = {
  [N in keyof typeof CALLABLE_RESULTS]: z.output<(typeof CALLABLE_RESULTS)[N]>;
};

/**
 * Server-Sent Events on /api/stream: `id: <n>` (increasing within the server's run), `event: <type>` and
 * `data: <JSON>`; a comment line every 25 s. A stream ends with a `closing` event when its session ends: at
 * sign-out or revocation ('signed-out', do not reconnect with this session) or when the access token it was
 * opened with expires ('expired', reconnect at once with a new ticket). A reader more than
 * STREAM_MAX_BUFFERED_BYTES behind is dropped without one. Every reconnect resyncs (src/backend/local/stream.ts).
 */
export type StreamEvent =
  /** A new message, or a new version of one (edited, deleted); the later version wins. */
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
  /** To every stream of one person: their mutes in force changed; these are all of them now. */
  | { type: 'mutes'; data: { mutes: ChannelMutes } }
  /** To a booking's client and consultant: the booking as it is now (a new one, or a step on it). */
  | { type: 'booking'; data: { booking: Booking } }
  /** To everyone who was in a channel its owner deleted (core/housekeeping.ts): drop it. */
  | { type: 'channelRemoved'; data: { channelId: string } }
  /** To a consultant and their clients: the consultant's services or hours changed; read them again. */
  | { type: 'services'; data: { consultantId: string } }
  /**
   * To a channel's participants who share read receipts: one person's marks there now (null: they stopped sharing
   * them). Never to the person themselves, never anyone's who turned receipts off.
   */
  | { type: 'receipt'; data: { channelId: string; uid: string; receipt: Receipt | null } }
  /** To a channel's other participants: someone is typing there now (never stored). */
  | { type: 'typing'; data: { channelId: string; uid: string; name: string } }
  /** The last event of a stream that the server ends. */
  | { type: 'closing'; data: { reason: StreamClosingReason } };

export type StreamClosingReason = 'signed-out' | 'expired';

/** A stream whose unsent bytes pass this is closed: a slow reader never grows the server (it resyncs). */
export const STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;
