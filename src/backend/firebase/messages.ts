// MessagesPort on Firestore channels/{id}/messages: pages of history (newest last), sending with the server's
// time, and the messages that arrive while a channel is open.
import { BackendError } from '../ports';
import type { MessagesPort } from '../ports';
import type { ChatMessage, UserDoc } from '@core/model';
import { LIMITS } from '@core/limits';
import { publicName } from '@core/users';
import { toChatMessage } from './convert';
import { guarded } from './errors';
import { ESTIMATE, listenLazily, reportListenerError } from './live';
import type { FirebaseSdk } from './sdk';

export const DEFAULT_PAGE_SIZE = 50;
/**
 * How many of the newest messages the live listener watches. New messages enter at the top of this window;
 * only a burst of more than this many between two snapshots could push one out unseen.
 */
export const LIVE_WINDOW = 50;

/** The name shown beside a person's messages: their nickname, else their name, as last read from users/{uid}. */
export function createSenderNames(): {
  remember(user: UserDoc): void;
  nameOf(uid: string): string | undefined;
} {
  const names = new Map<string, string>();
  return {
    remember(user) {
      const name = user.nickname?.trim() || user.displayName?.trim();
      if (name) names.set(user.uid, name);
    },
    nameOf: (uid) => names.get(uid),
  };
}

const byCreatedAt = (a: ChatMessage, b: ChatMessage): number =>
  a.createdAt - b.createdAt || a.id.localeCompare(b.id);

function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(Math.max(Math.trunc(limit), 1), LIMITS.messagesPageMax);
}

export function createMessagesPort(
  sdk: FirebaseSdk,
  nameOf: (uid: string) => string | undefined,
): MessagesPort {
  return {
    listMessages: (channelId, { before, limit } = {}) =>
      guarded(async () => {
        const { sdk: fs, db } = await sdk.firestore();
        // Newest first so that limit() takes the latest page; `before` continues past the oldest one shown.
        // (Messages within the same millisecond as `before` count as shown: the port's cursor is a time.)
        const constraints = [
          fs.orderBy('createdAt', 'desc'),
          ...(before !== undefined ? [fs.startAfter(fs.Timestamp.fromMillis(before))] : []),
          fs.limit(pageSize(limit)),
        ];
        const { docs } = await fs.getDocs(
          fs.query(fs.collection(db, 'channels', channelId, 'messages'), ...constraints),
        );
        return docs.map((doc) => toChatMessage(channelId, doc.id, doc.data(ESTIMATE))).reverse();
      }),

    sendMessage: (channelId, text) =>
      guarded(async () => {
        const body = text.trim();
        if (body.length === 0) throw new BackendError('INVALID_ARGUMENT', 'A message needs some text.');
        if (body.length > LIMITS.messageMax) {
          throw new BackendError(
            'INVALID_ARGUMENT',
            `A message can have at most ${LIMITS.messageMax} characters.`,
          );
        }
        const senderId = sdk.requireUid();
        const account = sdk.auth().currentUser;
        // As the backend names a sender (core/users.ts publicName); on_message_created corrects a stale guess.
        const senderName =
          nameOf(senderId) ?? publicName({ displayName: account?.displayName, email: account?.email ?? '' });
        const { sdk: fs, db } = await sdk.firestore();
        const ref = await fs.addDoc(fs.collection(db, 'channels', channelId, 'messages'), {
          senderId,
          senderName,
          text: body,
          createdAt: fs.serverTimestamp(),
        });
        // The server's time is known only once the write is read back; the local clock stands in for it.
        return { id: ref.id, channelId, senderId, senderName, text: body, createdAt: Date.now() };
      }),

    subscribeMessages: (channelId, listener) =>
      listenLazily(sdk, 'Live messages', ({ sdk: fs, db }) => {
        let baselineSeen = false;
        const newest = fs.query(
          fs.collection(db, 'channels', channelId, 'messages'),
          fs.orderBy('createdAt', 'desc'),
          fs.limit(LIVE_WINDOW),
        );
        return fs.onSnapshot(
          newest,
          // Metadata changes too, so that the moment the cached view is confirmed by the server is seen even
          // when it brings no document change.
          { includeMetadataChanges: true },
          (snapshot) => {
            // What the server holds when the listener starts is history (listMessages' job), not new: skip it,
            // including what a cached first snapshot or the server's first answer bring.
            if (!baselineSeen) {
              baselineSeen = !snapshot.metadata.fromCache;
              return;
            }
            snapshot
              .docChanges()
              .filter((change) => change.type === 'added')
              .map((change) => toChatMessage(channelId, change.doc.id, change.doc.data(ESTIMATE)))
              .sort(byCreatedAt)
              .forEach((message) => listener(message));
          },
          reportListenerError('Live messages'),
        );
      }),
  };
}
