// The blocks of firestore.rules that the Firebase adapter's behaviour depends on, transcribed for the client
// SDK fake (firebaseSdk.ts): channels/{channelId}/messages/{messageId} (a send is exactly once because a repeat of
// an id is an update, which these rules deny; src/backend/firebase/messages.ts reads the stored message then),
// channels/{channelId} and channelHandles/{handle} (no query lists a channel the caller is not in: a handle is
// read one at a time, by those who may read its channel), users/{uid}/FCMTokens/{tokenId} (a
// touch of a document that is gone is refused as PERMISSION_DENIED, not NOT_FOUND: rules see no stored document),
// channels/{channelId}/uploads/{attachmentId} (a message's file is its sender's unsent upload,
// claimed in the same batch), and sessionStands() on every request (revocations/{uid} against auth_time).
// Everything else the rules decide is tested on the emulator (__tests__/rules/emulator); other paths are allowed
// here.
import { DOCUMENT_ID } from '../../../functions/__tests__/support/memoryFirestore';
import type { Data, QuerySpec } from '../../../functions/__tests__/support/memoryFirestore';
import { LIMITS } from '../../../core/limits';
import { ATTACHMENT_MAX_BYTES, attachmentKind, toAttachment } from '../../../core/attachments';
import { isReaction } from '../../../core/reactions';
import { REPLY_SNIPPET_MAX } from '../../../core/replies';

export interface RulesAuth {
  uid: string;
  isAdmin: boolean;
  /** The ID token's email claim. */
  email?: string;
  /** The ID token's auth_time (seconds): when this session began. */
  authTime?: number;
}

/**
 * What the rules see of a request: who asks, the stored channel document and the caller's own user document
 * (`get()` in the rules).
 */
export interface RulesContext {
  auth: RulesAuth | null;
  channel: Data | undefined;
  /** The stored message (`resource.data`), for an update. */
  resource?: Data | undefined;
  /** request.time, in epoch milliseconds. */
  now?: number;
  /** The channel's id (the path's {channelId}). */
  channelId?: string;
  /** The caller's own stored user document (`get()` of users/{uid}, for the sender's name). */
  caller?: Data | undefined;
  /** `get()` and `getAfter()` of any document: as stored, and as it will be if the write (or batch) succeeds. */
  get?: (path: string) => Data | undefined;
  getAfter?: (path: string) => Data | undefined;
}

// function sessionStands(): a session begun before its account's last revocation (revocations/{uid}) is refused.
export function sessionStands(auth: RulesAuth, revocation: Data | undefined): boolean {
  if (revocation === undefined) return true;
  const before = revocation.revokedBefore;
  return typeof before === 'number' && auth.authTime !== undefined && auth.authTime >= before;
}

const MESSAGE_PATH = /^channels\/([^/]+)\/messages(?:\/([^/]+))?$/;

/** The channel id of a path under channels/{id}/messages (the collection or one of its documents), else null. */
export function messagesChannelOf(path: string): string | null {
  return MESSAGE_PATH.exec(path)?.[1] ?? null;
}

const members = (channel: Data | undefined): unknown[] =>
  Array.isArray(channel?.members) ? (channel.members as unknown[]) : [];

// function canMessageIn(channel)
function canMessageIn({ auth, channel }: RulesContext): boolean {
  if (!auth || !channel) return false;
  return channel.ownerId === auth.uid || members(channel).includes(auth.uid);
}

const isText = (value: unknown, min: number, max: number): boolean =>
  typeof value === 'string' && value.length >= min && value.length <= max;

/** `data.createdAt == request.time`: the write's own server timestamp. */
const isRequestTime = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (value as { __sentinel?: unknown }).__sentinel === 'serverTimestamp';

// function isAttachment(value): the shape core/attachments.ts reads back (toAttachment), field for field.
function isAttachment(value: unknown): boolean {
  const attachment = toAttachment(value);
  return attachment !== null && Object.keys(value as object).length === Object.keys(attachment).length;
}

const trimmed = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

// function callersPublicName()
function callersPublicName(auth: RulesAuth, caller: Data | undefined): string | null {
  if (!caller) return null; // get() of a missing document: the rule errs, so it denies
  const email = typeof caller.email === 'string' ? caller.email : (auth.email ?? '');
  return trimmed(caller.nickname) || trimmed(caller.displayName) || (email.split('@')[0] ?? '');
}

const uploadPath = (channelId: string, attachmentId: string) =>
  `channels/${channelId}/uploads/${attachmentId}`;

// function claimsUpload(channelId, messageId, attachment): the upload as recorded, claimed by this very write
// (whose isClaim holds it to the sender's own unsent upload).
function claimsUpload(
  channelId: string,
  messageId: string,
  attachment: Data,
  context: RulesContext,
): boolean {
  const after = context.getAfter?.(uploadPath(channelId, String(attachment.id)));
  return after !== undefined && after.messageId === messageId && sameData(after.attachment, attachment);
}

// function claimsUploads(channelId, messageId, list): 1 to 10 files, each claimed as claimsUpload claims one.
function claimsUploads(channelId: string, messageId: string, list: unknown, context: RulesContext): boolean {
  return (
    Array.isArray(list) &&
    list.length >= 1 &&
    list.length <= 10 &&
    list.every(
      (file) =>
        typeof file === 'object' &&
        file !== null &&
        claimsUpload(channelId, messageId, file as Data, context),
    )
  );
}

/** Rules' == on maps and lists: the same keys with the same values. */
function sameData(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
}
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Data)[key])]),
  );
}

// function isNewMessage(channelId, messageId)
function isNewMessage(channelId: string, messageId: string, data: Data, context: RulesContext): boolean {
  const { auth, caller } = context;
  if (!auth) return false;
  const fields = ['senderId', 'senderName', 'text', 'createdAt'];
  const keys = Object.keys(data);
  return (
    keys.every((key) => [...fields, 'attachment', 'attachments', 'replyTo'].includes(key)) &&
    ['senderId', 'text', 'createdAt'].every((field) => keys.includes(field)) &&
    !('attachment' in data && 'attachments' in data) &&
    data.senderId === auth.uid &&
    (!('senderName' in data) || data.senderName === callersPublicName(auth, caller)) &&
    isText(data.senderName ?? '', 0, LIMITS.senderNameMax) &&
    (isText(data.text, 1, LIMITS.messageMax) ||
      (data.text === '' && ('attachment' in data || 'attachments' in data))) &&
    (!('attachment' in data) ||
      (isAttachment(data.attachment) &&
        claimsUpload(channelId, messageId, data.attachment as Data, context))) &&
    (!('attachments' in data) || claimsUploads(channelId, messageId, data.attachments, context)) &&
    isRequestTime(data.createdAt) &&
    (!('replyTo' in data) || isQuoteIn(channelId, data.replyTo, context))
  );
}

// function isQuoteIn(channelId, quote): a message of this very channel (get() of a missing one denies), not
// deleted, under its sender's id and name, with a snippet of 1 to 120 characters.
function isQuoteIn(channelId: string, quote: unknown, context: RulesContext): boolean {
  if (typeof quote !== 'object' || quote === null) return false;
  const { id, senderId, senderName, snippet } = quote as Data;
  if (!onlyKeys(quote as Data, ['id', 'senderId', 'senderName', 'snippet'])) return false;
  if (typeof id !== 'string' || !/^[A-Za-z0-9]{20}$/.test(id)) return false;
  const original = context.get?.(`channels/${channelId}/messages/${id}`);
  if (original === undefined) return false;
  return (
    original.deleted !== true &&
    senderId === original.senderId &&
    senderName === (original.senderName ?? '') &&
    isText(snippet, 1, REPLY_SNIPPET_MAX)
  );
}

// function isOwnReaction(): core/reactions.ts — a person's own key of the map, one of the set or removed, on a
// message not deleted, with a new version (an update's dotted key 'reactions.<uid>' is the path into the map).
function isOwnReaction(data: Data, { auth, resource }: RulesContext): boolean {
  if (!auth || !resource) return false;
  const own = `reactions.${auth.uid}`;
  return (
    onlyKeys(data, [own, 'updatedAt']) &&
    own in data &&
    (isReaction(data[own]) || isFieldDeletion(data[own])) &&
    isRequestTime(data.updatedAt) &&
    resource.deleted !== true
  );
}

const millisOf = (value: unknown): number =>
  typeof value === 'object' && value !== null && 'toMillis' in value
    ? (value as { toMillis: () => number }).toMillis()
    : Number.NaN;

const onlyKeys = (data: Data, allowed: string[]): boolean =>
  Object.keys(data).every((k) => allowed.includes(k));

// function isOwnEdit(): core/messageEdits.ts checkEdit — the sender, within 24 hours, of a message not deleted.
function isOwnEdit(data: Data, { auth, resource, now }: RulesContext): boolean {
  if (!auth || !resource) return false;
  return (
    onlyKeys(data, ['text', 'editedAt', 'updatedAt']) &&
    isText(data.text, 1, LIMITS.messageMax) &&
    isRequestTime(data.editedAt) &&
    isRequestTime(data.updatedAt) &&
    resource.senderId === auth.uid &&
    resource.deleted !== true &&
    (now ?? Number.POSITIVE_INFINITY) < millisOf(resource.createdAt) + 24 * 60 * 60 * 1000
  );
}

const isFieldDeletion = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { __sentinel?: unknown }).__sentinel === 'delete';

// function isDeletion(channel): core/messageEdits.ts checkDelete — the sender or the channel's owner; the
// tombstone keeps no attachment (`!('attachment' in request.resource.data)`: removed when there was one).
function isDeletion(data: Data, { auth, resource, channel }: RulesContext): boolean {
  if (!auth || !resource) return false;
  return (
    onlyKeys(data, ['text', 'deleted', 'updatedAt', 'attachment', 'attachments', 'reactions']) &&
    ('attachment' in data ? isFieldDeletion(data.attachment) : !('attachment' in resource)) &&
    ('attachments' in data ? isFieldDeletion(data.attachments) : !('attachments' in resource)) &&
    ('reactions' in data ? isFieldDeletion(data.reactions) : !('reactions' in resource)) &&
    data.text === '' &&
    data.deleted === true &&
    isRequestTime(data.updatedAt) &&
    resource.deleted !== true &&
    // A private consultation's consultant deletes only their own (core/permissions.ts: no owner there).
    (resource.senderId === auth.uid || (channel?.ownerId === auth.uid && channel.kind !== 'private'))
  );
}

// function canReadChannel(channel): a channel's document (not its messages) — its people, and admins.
function canReadChannel({ auth, channel }: RulesContext): boolean {
  if (!auth || !channel) return false;
  return channel.ownerId === auth.uid || members(channel).includes(auth.uid) || auth.isAdmin;
}

// function canReadMessagesOf(channel)
function canReadMessagesOf(context: RulesContext): boolean {
  return canMessageIn(context) || (!!context.auth?.isAdmin && context.channel?.kind !== 'private');
}

/** `allow read` on a message (a get, or a query of the collection). */
export function mayReadMessages(context: RulesContext): boolean {
  return canReadMessagesOf(context);
}

/**
 * A write of channels/{channelId}/messages/{messageId}: `create` when no document is stored there, `update` (a
 * set over a stored one, or an update), `delete`. A create, and the updates of an edit or a deletion.
 */
export function mayWriteMessage(
  operation: 'create' | 'update' | 'delete',
  messageId: string,
  data: Data,
  context: RulesContext,
): boolean {
  if (!context.auth || operation === 'delete') return false;
  if (operation === 'update') {
    return (
      canMessageIn(context) &&
      (isOwnEdit(data, context) || isDeletion(data, context) || isOwnReaction(data, context))
    );
  }
  // messageId.matches('^[A-Za-z0-9]{20}$'), and storedChannel(channelId).get('archivedAt', null) == null
  return (
    /^[A-Za-z0-9]{20}$/.test(messageId) &&
    canMessageIn(context) &&
    (context.channel?.archivedAt ?? null) === null &&
    isNewMessage(context.channelId ?? '', messageId, data, context)
  );
}

const TYPING_PATH = /^channels\/([^/]+)\/typing\/([^/]+)$/;

/** The channel of a typing document's path (channels/{channelId}/typing/{uid}), else null. */
export function typingChannelOf(path: string): string | null {
  return TYPING_PATH.exec(path)?.[1] ?? null;
}

/**
 * A write of channels/{channelId}/typing/{uid}: its typer alone, in a channel they take part in, `{at}` only at
 * the server's time (a delete is never allowed).
 */
export function mayWriteTyping(
  path: string,
  operation: 'create' | 'update' | 'delete',
  data: Data,
  context: RulesContext,
): boolean {
  const uid = TYPING_PATH.exec(path)?.[2];
  if (!context.auth || operation === 'delete' || uid !== context.auth.uid) return false;
  const keys = Object.keys(data);
  return canMessageIn(context) && keys.length === 1 && keys[0] === 'at';
}

const UPLOAD_PATH = /^channels\/([^/]+)\/uploads\/([^/]+)$/;

/** The channel and attachment ids of an upload record's path, else null. */
export function uploadRecordOf(path: string): { channelId: string; attachmentId: string } | null {
  const match = UPLOAD_PATH.exec(path);
  return match ? { channelId: match[1] ?? '', attachmentId: match[2] ?? '' } : null;
}

/** `allow get` on channels/{channelId}/uploads/{attachmentId}: a member, of their own or of one that is not. */
export function mayReadUpload(context: RulesContext): boolean {
  return (
    canMessageIn(context) &&
    (context.resource === undefined || context.resource.uploaderId === context.auth?.uid)
  );
}

/**
 * A write of channels/{channelId}/uploads/{attachmentId}: `create` (isNewUpload: the caller's file for this
 * channel, unsent, at the server's time) and `update` (isClaim: its uploader's new message, in the same batch,
 * takes it). Never deleted by a client.
 */
export function mayWriteUpload(
  operation: 'create' | 'update' | 'delete',
  attachmentId: string,
  data: Data,
  context: RulesContext,
): boolean {
  const { auth, resource } = context;
  if (!auth) return false;
  // A claim needs no membership check of its own: its message, in the same write, has one.
  if (operation === 'create' && !canMessageIn(context)) return false;
  if (operation === 'create') {
    const keys = Object.keys(data).sort().join();
    const attachment = data.attachment as Data | undefined;
    return (
      /^[A-Za-z0-9]{20}$/.test(attachmentId) &&
      keys === 'attachment,createdAt,messageId,uploaderId' &&
      data.uploaderId === auth.uid &&
      isAttachment(attachment) &&
      attachment?.id === attachmentId &&
      isRequestTime(data.createdAt) &&
      data.messageId === null
    );
  }
  if (operation !== 'update' || !resource) return false;
  const messageId = data.messageId;
  if (typeof messageId !== 'string' || Object.keys(data).join() !== 'messageId') return false;
  const message = `channels/${context.channelId ?? ''}/messages/${messageId}`;
  const after = context.getAfter?.(message);
  return (
    resource.uploaderId === auth.uid &&
    resource.messageId === null &&
    context.get?.(message) === undefined &&
    ((after?.attachment as Data | undefined)?.id === attachmentId ||
      (Array.isArray(after?.attachments) &&
        after.attachments.some((file) => sameData(file, resource.attachment))))
  );
}

/** A read of one document by its reference (a get), not a query (a list). */
const isGet = (spec: QuerySpec): boolean =>
  spec.filters.length === 1 && spec.filters[0]?.field === DOCUMENT_ID && spec.filters[0].op === '==';

const filtersTo = (spec: QuerySpec, field: string, op: string, value: unknown): boolean =>
  spec.filters.some((filter) => filter.field === field && filter.op === op && filter.value === value);

/**
 * A read of channels or channelHandles (a get, or a query of the collection): `allow get: if
 * canReadChannel(resource.data)` and `allow list: if canMessageIn(resource.data)` on channels (a query must be
 * bound to the caller's ownerId or membership), `allow get: if signedIn()` on channelHandles. `stored` is the
 * document a get reads. True for any other collection.
 */
export function mayReadCollection(
  spec: QuerySpec,
  auth: RulesAuth | null,
  stored: Data | undefined,
  handleChannel?: Data | undefined,
): boolean {
  if (spec.collection === 'channelHandles') {
    // resource != null && canReadChannel(storedChannel(resource.data.id)): `channel` is the handle's channel.
    return (
      auth !== null && isGet(spec) && stored !== undefined && canReadChannel({ auth, channel: handleChannel })
    );
  }
  if (spec.collection !== 'channels') return true;
  if (!auth) return false;
  if (isGet(spec)) return stored === undefined || canReadChannel({ auth, channel: stored });
  return filtersTo(spec, 'ownerId', '==', auth.uid) || filtersTo(spec, 'members', 'array-contains', auth.uid);
}

const TOKEN_PATH = /^users\/([^/]+)\/FCMTokens\/[^/]+$/;

/**
 * A write of users/{uid}/FCMTokens/{tokenId}: `allow update: if isUser(uid) && isTouch()` (isTouch reads
 * resource.data, so an update of a document that is not stored is refused), `allow delete: if isUser(uid)`, no
 * create. True for any other path.
 */
export function mayWriteToken(
  path: string,
  operation: 'create' | 'update' | 'delete',
  data: Data,
  auth: RulesAuth | null,
  exists: boolean,
): boolean {
  const uid = TOKEN_PATH.exec(path)?.[1];
  if (uid === undefined) return true;
  if (!auth || auth.uid !== uid) return false;
  if (operation === 'delete') return true;
  if (operation === 'create' || !exists) return false;
  return Object.keys(data).every((key) => key === 'lastUsed') && isRequestTime(data.lastUsed);
}

// storage.rules, match /channels/{channelId}/attachments/{attachmentId}: the channel's owner and members only.
const ATTACHMENT_OBJECT = /^channels\/([^/]+)\/attachments\/([^/]+)$/;

/** The channel and attachment ids of an attachment's object path, else null (nothing else is open). */
export function attachmentObjectOf(path: string): { channelId: string; attachmentId: string } | null {
  const match = ATTACHMENT_OBJECT.exec(path);
  return match ? { channelId: match[1] ?? '', attachmentId: match[2] ?? '' } : null;
}

export interface StorageObject {
  size: number;
  contentType: string;
  contentDisposition: string;
  metadata: Record<string, string>;
}

/**
 * `allow get`: a member, of a file sent with a message or their own upload not sent yet (`upload`: its record; a
 * file without one, from before records, is read as before).
 */
export function mayReadObject(context: RulesContext, upload: Data | undefined): boolean {
  return (
    canMessageIn(context) &&
    (upload === undefined || upload.uploaderId === context.auth?.uid || upload.messageId !== null)
  );
}
/** `allow delete`: its sender, or the channel's consultant outside a private consultation. */
export function mayDeleteObject(stored: StorageObject, context: RulesContext): boolean {
  return (
    canMessageIn(context) &&
    (stored.metadata.uploaderId === context.auth?.uid ||
      (context.channel?.ownerId === context.auth?.uid && context.channel?.kind !== 'private'))
  );
}

/** `allow create`: isMemberOf, the id's shape, isNewAttachment(), and isRecordedUpload(): as its record says. */
export function mayCreateObject(
  attachmentId: string,
  file: StorageObject,
  context: RulesContext,
  upload: Data | undefined,
): boolean {
  const kind = attachmentKind(file.contentType);
  const recorded = upload?.attachment as Data | undefined;
  return (
    /^[A-Za-z0-9]{20}$/.test(attachmentId) &&
    canMessageIn(context) &&
    file.size >= 1 &&
    file.size <= ATTACHMENT_MAX_BYTES &&
    Object.keys(file.metadata).join() === 'uploaderId' &&
    file.metadata.uploaderId === context.auth?.uid &&
    (kind === 'image' || (kind === 'document' && file.contentDisposition.startsWith('attachment;'))) &&
    upload?.uploaderId === context.auth?.uid &&
    upload?.messageId === null &&
    recorded?.size === file.size &&
    recorded?.contentType === file.contentType
  );
}
