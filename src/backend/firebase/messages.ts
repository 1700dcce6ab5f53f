// MessagesPort on Firestore channels/{id}/messages, in core/messages.ts order: (createdAt, id), oldest first.
//
// Time. Firestore keeps a server timestamp to the microsecond; a message's createdAt is that time rounded down to
// the millisecond (core/documents.ts toMillis). Within one millisecond Firestore orders by the stored time, the app
// by id, so no Firestore cursor (a stored time and a document name) can stand for an app cursor (a millisecond and
// an id), and a page cut by Firestore's order inside a millisecond would not be the app's page. So pages are cut at
// millisecond boundaries: the millisecond a cursor names is read whole (`createdAt` in [T(ms), T(ms + 1)), T of a
// millisecond being its first instant) and judged by id; the rest is a range on createdAt ordered by (createdAt,
// documentId()) with a limit, and when a page is full, the millisecond it ends in is read whole as well, so that
// the page takes the app's share of that millisecond, not Firestore's. A page costs one query, two when it is
// full, three with a cursor; no composite index is needed (createdAt's own index serves every one).
//
// Sending. The client names the message (its id is the send's idempotency key, ARCHITECTURE.md "Live data"), and
// the adapter writes channels/{id}/messages/{messageId} in a batch with, for a file, the claim of its upload record
// (channels/{id}/uploads/{attachmentId}). firestore.rules allow a create only, so a repeat of the id is an update
// and is denied; the adapter then reads what is stored: the caller's own message is the answer (nothing changes,
// whatever text the repeat carried), someone else's is ALREADY_EXISTS. A repeat writes nothing, so
// on_message_created runs once per message.
//
// Editing and deleting. The adapter reads the channel and the message, runs core/messageEdits.ts's
// checks for clear words, then updates the message: an edit writes `text`, `editedAt` and `updatedAt` (both the
// server's time), a deletion empties `text` and writes `deleted` and `updatedAt`; firestore.rules allow exactly
// these (and the 24 hours by request.time), so a client that skips the checks is still refused. The live
// subscription follows the messages created since what the subscriber holds (`since`) and, with a second query on
// `updatedAt`, every message changed since the newest version it holds (`since.changes`), each version once.
import type { DocumentData, Query, QueryConstraint, QuerySnapshot } from 'firebase/firestore';
import { BackendError } from '../ports';
import type { MessagesPort } from '../ports';
import type { ChatMessage, UserDoc } from '@core/model';
import { DOCUMENT_ID_PATTERN } from '@core/ids';
import { LIMITS } from '@core/limits';
import {
  changesOf,
  compareMessages,
  isAfter,
  isChanged,
  isNewChange,
  isNewSince,
  versionOf,
} from '@core/messages';
import { CHANNEL_MESSAGES } from '@core/channels';
import { HOUSEKEEPING_MESSAGES } from '@core/housekeeping';
import {
  checkDelete,
  checkEdit,
  MESSAGE_CHANGE_MESSAGES,
  MESSAGE_CHANGE_STATUS,
  NO_SUCH_MESSAGE,
} from '@core/messageEdits';
import type { ChangeCheck } from '@core/messageEdits';
import { MESSAGE_TEXT_MESSAGES, checkMessageText } from '@core/messageText';
import { ATTACHMENT_ACCESS_MESSAGES, ATTACHMENT_COUNT_MAX, toAttachmentList } from '@core/attachments';
import type { Attachment } from '@core/attachments';
import type { MessageCursor } from '@core/messages';
import { publicName } from '@core/users';
import { checkReaction, isReaction, REACTION_MESSAGES, REACTION_STATUS, withReaction } from '@core/reactions';
import { quoteOf, REPLY_MESSAGES, REPLY_STATUS } from '@core/replies';
import type { ReplyQuote } from '@core/replies';
import { createAttachments, uploadRef } from './attachments';
import { toChannel, toChatMessage, toUserDoc } from './convert';
import { guarded, toBackendError } from './errors';
import { ESTIMATE, listenLazily, reportListenerError } from './live';
import type { LiveStatusTracker } from './live';
import type { FirebaseSdk, LoadedFirestore } from './sdk';

export const DEFAULT_PAGE_SIZE = 50;

export const MESSAGE_ID_TAKEN = 'That message id is already taken.';

export interface SenderNames {
  remember(user: UserDoc): void;
  nameOf(uid: string): string | undefined;
  forget(uid: string): void;
}

/** The name shown beside a person's messages (core/users.ts publicName), as last read from users/{uid}. */
export function createSenderNames(): SenderNames {
  const names = new Map<string, string>();
  return {
    remember(user) {
      const name = publicName(user);
      if (name) names.set(user.uid, name);
    },
    nameOf: (uid) => names.get(uid),
    forget: (uid) => void names.delete(uid),
  };
}

function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(Math.max(Math.trunc(limit), 1), LIMITS.messagesPageMax);
}

function checkCursor(cursor: MessageCursor | undefined): void {
  if (cursor === undefined) return;
  if (
    !Number.isSafeInteger(cursor.createdAt) ||
    cursor.createdAt < 0 ||
    typeof cursor.id !== 'string' ||
    (cursor.id !== '' && !DOCUMENT_ID_PATTERN.test(cursor.id))
  ) {
    throw new BackendError('INVALID_ARGUMENT', 'That is not a place in the conversation.');
  }
}

function checkText(text: unknown, withAttachment: boolean): string {
  const checked = checkMessageText(typeof text === 'string' ? text : '', { withAttachment });
  if (!checked.ok) throw new BackendError('INVALID_ARGUMENT', MESSAGE_TEXT_MESSAGES[checked.problem]);
  return checked.text;
}

/** Reads of one channel's messages, cut at millisecond boundaries (see the top of this module). */
function channelReader({ sdk: fs, db }: LoadedFirestore, channelId: string) {
  const messages = fs.collection(db, 'channels', channelId, 'messages');
  const at = (ms: number) => fs.Timestamp.fromMillis(ms);
  const read = async (...constraints: QueryConstraint[]): Promise<ChatMessage[]> => {
    const { docs } = await fs.getDocs(fs.query(messages, ...constraints));
    return docs.map((doc) => toChatMessage(channelId, doc.id, doc.data(ESTIMATE)));
  };

  /** Every message of one millisecond, in order. */
  const millisecond = async (ms: number): Promise<ChatMessage[]> =>
    (await read(fs.where('createdAt', '>=', at(ms)), fs.where('createdAt', '<', at(ms + 1)))).sort(
      compareMessages,
    );

  /**
   * The `count` messages nearest to one end of the range [from, to) of milliseconds, in order: the newest
   * (`newest`) or the oldest.
   */
  const nearest = async (
    end: 'newest' | 'oldest',
    count: number,
    range: { from?: number; to?: number },
  ): Promise<ChatMessage[]> => {
    const direction = end === 'newest' ? 'desc' : 'asc';
    const page = await read(
      ...(range.from !== undefined ? [fs.where('createdAt', '>=', at(range.from))] : []),
      ...(range.to !== undefined ? [fs.where('createdAt', '<', at(range.to))] : []),
      fs.orderBy('createdAt', direction),
      fs.orderBy(fs.documentId(), direction),
      fs.limit(count),
    );
    const edge = page.at(-1);
    if (page.length < count || edge === undefined) return page.sort(compareMessages);
    // Full: the millisecond the page ends in may have more messages than it took, and Firestore took them by
    // stored time. Read it whole and take the app's share.
    const whole = [
      ...page.filter((message) => message.createdAt !== edge.createdAt),
      ...(await millisecond(edge.createdAt)),
    ].sort(compareMessages);
    return end === 'newest' ? whole.slice(-count) : whole.slice(0, count);
  };

  return { messages, millisecond, nearest };
}

function checkMessageId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !DOCUMENT_ID_PATTERN.test(id)) {
    throw new BackendError('INVALID_ARGUMENT', 'That is not a message of this channel.');
  }
}

function refuse(check: ChangeCheck): void {
  if (!check.ok) {
    throw new BackendError(MESSAGE_CHANGE_STATUS[check.problem], MESSAGE_CHANGE_MESSAGES[check.problem]);
  }
}

/**
 * The files a send carries, checked as the embedded server checks them (core/schemas.ts messageCreateBody): none
 * (null), or 1 to ATTACHMENT_COUNT_MAX attachments of QuPM's shape, no id twice; INVALID_ARGUMENT otherwise.
 */
function checkedAttachments(value: unknown): Attachment[] | null {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return null;
  if (Array.isArray(value) && value.length > ATTACHMENT_COUNT_MAX) {
    throw new BackendError('INVALID_ARGUMENT', ATTACHMENT_ACCESS_MESSAGES.tooMany);
  }
  if (Array.isArray(value) && new Set(value.map((file) => (file as Attachment)?.id)).size !== value.length) {
    throw new BackendError('INVALID_ARGUMENT', ATTACHMENT_ACCESS_MESSAGES.twice);
  }
  const list = Array.isArray(value) ? toAttachmentList(value) : null;
  if (list === null) throw new BackendError('INVALID_ARGUMENT', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
  return list;
}

/**
 * Why a send with this file was refused, in the embedded server's words (server/services/attachments.ts
 * claimAttachment): no such upload in this channel (NOT_FOUND), someone else's (PERMISSION_DENIED), or already sent
 * with another message (ALREADY_EXISTS). Null when the file is not the reason (then the refusal stands as it came),
 * or when the sender is not in the channel at all (the rules hide every upload from them).
 */
async function refusedUpload(
  { sdk: fs, db }: LoadedFirestore,
  channelId: string,
  senderId: string,
  attachment: Attachment,
  messageId: string,
): Promise<BackendError | null> {
  try {
    const channel = await fs.getDoc(fs.doc(db, 'channels', channelId));
    const data = channel.data();
    const members: unknown = data?.members;
    const inChannel =
      data?.ownerId === senderId || (Array.isArray(members) && (members as unknown[]).includes(senderId));
    if (!inChannel) return null;
  } catch {
    return null;
  }
  let upload: DocumentData | undefined;
  try {
    const snapshot = await fs.getDoc(uploadRef(fs, db, channelId, attachment.id));
    if (!snapshot.exists()) return new BackendError('NOT_FOUND', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
    upload = snapshot.data();
  } catch (error) {
    // A member reads their own uploads and whether an id is one; someone else's is refused.
    return toBackendError(error).status === 'PERMISSION_DENIED'
      ? new BackendError('PERMISSION_DENIED', ATTACHMENT_ACCESS_MESSAGES.notYours)
      : null;
  }
  const claimedBy: unknown = upload?.messageId;
  if (typeof claimedBy === 'string' && claimedBy !== messageId) {
    return new BackendError('ALREADY_EXISTS', ATTACHMENT_ACCESS_MESSAGES.alreadySent);
  }
  return null;
}

/**
 * The quote of a reply to `messageId` in this channel, from the stored original (core/replies.ts); one of another
 * channel is simply not found here (the path is this channel's). firestore.rules check it again.
 */
async function quoteFor(
  { sdk: fs, db }: LoadedFirestore,
  channelId: string,
  messageId: unknown,
): Promise<ReplyQuote> {
  if (typeof messageId !== 'string' || !DOCUMENT_ID_PATTERN.test(messageId)) {
    throw new BackendError('INVALID_ARGUMENT', REPLY_MESSAGES.notInChannel);
  }
  const snapshot = await fs.getDoc(fs.doc(db, 'channels', channelId, 'messages', messageId));
  const original = snapshot.exists() ? toChatMessage(channelId, messageId, snapshot.data(ESTIMATE)) : null;
  const quoted = quoteOf(channelId, original);
  if (!quoted.ok) throw new BackendError(REPLY_STATUS[quoted.problem], REPLY_MESSAGES[quoted.problem]);
  return quoted.quote;
}

export function createMessagesPort(
  sdk: FirebaseSdk,
  senderNames: SenderNames,
  live: Pick<LiveStatusTracker, 'track'>,
): MessagesPort {
  const attachments = createAttachments(sdk);
  /** The caller's public name as the backend derives it (on_message_created corrects a stale one). */
  async function senderNameOf(firestore: LoadedFirestore, uid: string): Promise<string> {
    const known = senderNames.nameOf(uid);
    if (known) return known;
    const account = sdk.auth().currentUser;
    const email = account?.email ?? '';
    try {
      const { sdk: fs, db } = firestore;
      const snapshot = await fs.getDoc(fs.doc(db, 'users', uid));
      if (snapshot.exists()) {
        const user = toUserDoc(uid, snapshot.data(ESTIMATE), email);
        senderNames.remember(user);
        return publicName(user);
      }
    } catch {
      // The account's own name stands in (a document not written yet, or unreadable offline).
    }
    return publicName({ displayName: account?.displayName, email });
  }

  /** The channel is stored archived (false when it cannot be read). */
  async function isArchived({ sdk: fs, db }: LoadedFirestore, channelId: string): Promise<boolean> {
    const snapshot = await fs.getDoc(fs.doc(db, 'channels', channelId)).catch(() => null);
    const data = snapshot?.exists() ? snapshot.data(ESTIMATE) : undefined;
    return data !== undefined && toChannel(channelId, data).archivedAt !== undefined;
  }

  /**
   * The channel and one of its messages as stored, for a change by the caller: a channel they cannot read is
   * refused as not theirs (the rules deny the read), a message it does not have is NOT_FOUND.
   */
  async function loadTarget(channelId: string, messageId: unknown) {
    checkMessageId(channelId);
    checkMessageId(messageId);
    const uid = sdk.requireUid();
    const firestore = await sdk.firestore();
    const { sdk: fs, db } = firestore;
    const notInChannel = () =>
      new BackendError(MESSAGE_CHANGE_STATUS.notInChannel, MESSAGE_CHANGE_MESSAGES.notInChannel);
    const channelSnapshot = await fs.getDoc(fs.doc(db, 'channels', channelId)).catch((error: unknown) => {
      throw toBackendError(error).status === 'PERMISSION_DENIED' ? notInChannel() : error;
    });
    if (!channelSnapshot.exists()) throw new BackendError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    const channel = toChannel(channelId, channelSnapshot.data(ESTIMATE));
    if (channel.ownerId !== uid && !channel.members.includes(uid)) throw notInChannel();
    const ref = fs.doc(db, 'channels', channelId, 'messages', messageId);
    const snapshot = await fs.getDoc(ref);
    if (!snapshot.exists()) throw new BackendError('NOT_FOUND', NO_SUCH_MESSAGE);
    const message = toChatMessage(channelId, messageId, snapshot.data(ESTIMATE));
    /** The message as stored after the change; should that read fail, `expected` (the device's clock's time). */
    const stored = async (expected: Partial<ChatMessage>): Promise<ChatMessage> => {
      try {
        const after = await fs.getDoc(ref);
        const data = after.data(ESTIMATE);
        if (data) return toChatMessage(channelId, messageId, data);
      } catch {
        // The change is stored; only its read failed.
      }
      return { ...message, ...expected };
    };
    return { uid, fs, ref, channel, message, stored };
  }

  return {
    listMessages: (channelId, { before, after, limit } = {}) =>
      guarded(async () => {
        if (before !== undefined && after !== undefined) {
          throw new BackendError('INVALID_ARGUMENT', 'Page before or after a message, not both.');
        }
        checkCursor(before ?? after);
        const count = pageSize(limit);
        const { millisecond, nearest } = channelReader(await sdk.firestore(), channelId);
        if (after !== undefined) {
          const same = (await millisecond(after.createdAt)).filter((message) => isAfter(message, after));
          if (same.length >= count) return same.slice(0, count);
          return [...same, ...(await nearest('oldest', count - same.length, { from: after.createdAt + 1 }))];
        }
        if (before !== undefined) {
          // `id: ''` stands before every id of its millisecond: nothing of it is before the cursor.
          const same =
            before.id === ''
              ? []
              : (await millisecond(before.createdAt)).filter(
                  (message) => compareMessages(message, before) < 0,
                );
          if (same.length >= count) return same.slice(-count);
          return [...(await nearest('newest', count - same.length, { to: before.createdAt })), ...same];
        }
        return nearest('newest', count, {});
      }),

    sendMessage: (channelId, message) =>
      guarded(async () => {
        const attachments = checkedAttachments(message?.attachments);
        const body = checkText(message?.text, attachments !== null);
        const id = message?.id;
        if (typeof id !== 'string' || !DOCUMENT_ID_PATTERN.test(id)) {
          throw new BackendError('INVALID_ARGUMENT', 'A message needs an id of 20 letters and digits.');
        }
        const senderId = sdk.requireUid();
        const firestore = await sdk.firestore();
        const { sdk: fs, db } = firestore;
        const senderName = await senderNameOf(firestore, senderId);
        const replyTo =
          message.replyTo === undefined ? undefined : await quoteFor(firestore, channelId, message.replyTo);
        const ref = fs.doc(db, 'channels', channelId, 'messages', id);
        const stored = async (): Promise<ChatMessage | null> => {
          const snapshot = await fs.getDoc(ref);
          return snapshot.exists() ? toChatMessage(channelId, id, snapshot.data(ESTIMATE)) : null;
        };
        // The message; with files, in one batch with the claim of each upload (firestore.rules claimsUploads: the
        // sender's own unsent uploads in this channel, as recorded, once). Either is queued by the SDK while
        // offline, and sent when the network is back.
        const write = (named: boolean): Promise<void> => {
          const message = {
            senderId,
            ...(named ? { senderName } : {}),
            text: body,
            createdAt: fs.serverTimestamp(),
            ...(attachments ? { attachments } : {}),
            ...(replyTo ? { replyTo } : {}),
          };
          if (!attachments) return fs.setDoc(ref, message);
          const batch = fs.writeBatch(db);
          batch.set(ref, message);
          for (const file of attachments) {
            batch.update(uploadRef(fs, db, channelId, file.id), { messageId: id });
          }
          return batch.commit();
        };
        try {
          await write(true);
        } catch (error) {
          const failure = toBackendError(error);
          // The claim found no upload to update (Firestore may say so before its rules do).
          if (attachments && failure.status === 'NOT_FOUND') {
            throw new BackendError('NOT_FOUND', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
          }
          // A repeat of the id is an update, which the rules deny: what is stored under it decides.
          if (failure.status !== 'PERMISSION_DENIED') throw failure;
          const existing = await stored().catch(() => null);
          if (existing !== null) {
            if (existing.senderId !== senderId) throw new BackendError('ALREADY_EXISTS', MESSAGE_ID_TAKEN);
            return existing;
          }
          // A file that is not the sender's to send here: the embedded server's words for why (its first).
          for (const file of attachments ?? []) {
            const refused = await refusedUpload(firestore, channelId, senderId, file, id);
            if (refused) throw refused;
          }
          // Nothing stored: the rules refused the message itself, or only its name (a rename on another device
          // since this one last read it: the rules take the sender's name from their stored user document). Once
          // more without a name, which the rules allow and on_message_created fills in; a message the rules
          // refuse as a whole is refused again.
          senderNames.forget(senderId);
          await write(false).catch(async (error: unknown) => {
            // An archived channel is read-only (the rules' create): the embedded server's words and kind for it.
            if (
              toBackendError(error).status === 'PERMISSION_DENIED' &&
              (await isArchived(firestore, channelId))
            ) {
              throw new BackendError(
                'FAILED_PRECONDITION',
                HOUSEKEEPING_MESSAGES.archived,
                'channel-archived',
              );
            }
            throw error;
          });
        }
        // The stored message, with the server's time; should that read fail, the device's clock stands in.
        const written = await stored().catch(() => null);
        // Stored without a name (above): the name just read again stands in until on_message_created sets it.
        const name = written?.senderName || (await senderNameOf(firestore, senderId));
        return written
          ? { ...written, senderName: name }
          : {
              id,
              channelId,
              senderId,
              senderName: name,
              text: body,
              createdAt: Date.now(),
              ...(attachments ? { attachments } : {}),
              ...(replyTo ? { replyTo } : {}),
            };
      }),

    editMessage: (channelId, messageId, text) =>
      guarded(async () => {
        const body = checkText(text, false);
        const { uid, fs, ref, channel, message, stored } = await loadTarget(channelId, messageId);
        refuse(checkEdit(channel, message, uid, Date.now()));
        await fs.updateDoc(ref, {
          text: body,
          editedAt: fs.serverTimestamp(),
          updatedAt: fs.serverTimestamp(),
        });
        const now = Date.now();
        return stored({ text: body, editedAt: now, updatedAt: now });
      }),

    deleteMessage: (channelId, messageId) =>
      guarded(async () => {
        const { uid, fs, ref, channel, message, stored } = await loadTarget(channelId, messageId);
        refuse(checkDelete(channel, message, uid));
        // The tombstone keeps no files (firestore.rules holds every client to that); a message from before
        // several files holds its one in `attachment`.
        await fs.updateDoc(ref, {
          text: '',
          deleted: true,
          updatedAt: fs.serverTimestamp(),
          ...(message.attachments ? { attachment: fs.deleteField(), attachments: fs.deleteField() } : {}),
          ...(message.reactions ? { reactions: fs.deleteField() } : {}),
        });
        // Its files go with it (storage.rules let the sender or the owner delete them). Should
        // this fail (the page closed, the network dropped), functions/ on_message_deleted deletes them anyway.
        await Promise.all(
          (message.attachments ?? []).map((file) =>
            attachments.deleteAttachment(channelId, file).catch(() => undefined),
          ),
        );
        const tombstone = { ...(await stored({ text: '', deleted: true, updatedAt: Date.now() })) };
        delete tombstone.attachments;
        delete tombstone.reactions;
        return tombstone;
      }),

    reactToMessage: (channelId, messageId, emoji) =>
      guarded(async () => {
        if (emoji !== null && !isReaction(emoji)) {
          throw new BackendError(REACTION_STATUS.notInSet, REACTION_MESSAGES.notInSet);
        }
        const { uid, fs, ref, channel, message, stored } = await loadTarget(channelId, messageId);
        const check = checkReaction(channel, message, uid, emoji);
        if (!check.ok)
          throw new BackendError(REACTION_STATUS[check.problem], REACTION_MESSAGES[check.problem]);
        // Only the caller's own key of the map (firestore.rules isOwnReaction), and a new version. An update reads
        // the dotted key as the path into the map (an auth uid has no dots).
        await fs.updateDoc(ref, {
          [`reactions.${uid}`]: emoji ?? fs.deleteField(),
          updatedAt: fs.serverTimestamp(),
        });
        const reactions = withReaction(message.reactions, uid, emoji);
        const expected = { ...message, updatedAt: Date.now() };
        delete expected.reactions;
        return stored({ ...expected, ...(reactions ? { reactions } : {}) });
      }),

    uploadAttachment: attachments.uploadAttachment,
    readAttachment: attachments.readAttachment,

    subscribeMessages: (channelId, since, listener) =>
      listenLazily(sdk, 'Live messages', ({ sdk: fs, db }) => {
        const changes = changesOf(since);
        // The version of each message delivered: each version once, never an older one after a newer.
        const delivered = new Map<string, number>();
        const collection = fs.collection(db, 'channels', channelId, 'messages');
        const follow = (query: Query<DocumentData>) => {
          const tracked = live.track();
          const stop = fs.onSnapshot(
            query,
            // Metadata changes too: a document's confirmation by the server, and the listener falling back to
            // the cache and catching up again (the live status).
            { includeMetadataChanges: true },
            (snapshot: QuerySnapshot<DocumentData>) => {
              const batch: ChatMessage[] = [];
              for (const change of snapshot.docChanges({ includeMetadataChanges: true })) {
                const { doc } = change;
                // A message with pending writes is this device's own, not yet on the server: it is delivered
                // when the server confirms it (its time is the server's then).
                if (change.type === 'removed' || doc.metadata.hasPendingWrites) continue;
                const message = toChatMessage(channelId, doc.id, doc.data(ESTIMATE));
                const known = delivered.get(doc.id);
                if (known !== undefined && versionOf(message) <= known) continue;
                if (!isNewSince(message, since) && !(isChanged(message) && isNewChange(message, changes)))
                  continue;
                delivered.set(doc.id, versionOf(message));
                batch.push(message);
              }
              try {
                if (batch.length > 0) listener(batch.sort(compareMessages));
              } finally {
                // After the batch: 'live' is reported once what the snapshot brought has been delivered (and
                // whatever the subscriber did with it, the status still follows the listener).
                tracked.report(snapshot.metadata.fromCache);
              }
            },
            (error: unknown) => {
              tracked.stop();
              reportListenerError('Live messages')(error);
            },
          );
          return () => {
            stop();
            tracked.stop();
          };
        };
        // Everything from since's millisecond on, without a limit: a burst of any size stays in the query, and
        // the SDK's own reconnect brings what was posted while the stream was down. And every message changed
        // from the newest version held on, older ones included.
        const stops = [
          follow(
            fs.query(
              collection,
              fs.where('createdAt', '>=', fs.Timestamp.fromMillis(since.createdAt)),
              fs.orderBy('createdAt'),
              fs.orderBy(fs.documentId()),
            ),
          ),
          follow(
            fs.query(
              collection,
              fs.where('updatedAt', '>=', fs.Timestamp.fromMillis(changes.at)),
              fs.orderBy('updatedAt'),
            ),
          ),
        ];
        return () => {
          for (const stop of stops) stop();
        };
      }),
  };
}
