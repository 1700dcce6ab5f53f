// Read receipts and typing on Firebase (core/receipts.ts).
// Receipts: channels/{id}/receipts/{uid}, written by functions/ alone (mark_channel_read, mark_channel_delivered,
// set_read_receipts), listed with `sharing == true` by the channel's participants who share receipts themselves
// (firestore.rules refuse anyone else, and any query that could return a person who does not share them). The
// caller's own choice is users/{uid}.readReceipts, read from their own user document.
// Typing: channels/{id}/typing/{uid} = {at: the server's time}, one small document per typer, overwritten by
// each signal (the client throttles to one every few seconds); a listener shows only what changes while it is live,
// so neither an old document nor a reconnect's catch-up shows a stale "typing".
import type { Receipt, ReceiptSettings } from '@core/receipts';
import type { ReceiptsPort, TypingPort, TypingSignal } from '../ports';
import { callFunction } from './callables';
import { guarded } from './errors';
import { listenLazily, reportListenerError } from './live';
import type { FirebaseSdk, LoadedFirestore } from './sdk';

type Doc = { id: string; data(): Record<string, unknown> };

const markOf = (value: unknown): Receipt['read'] => {
  if (typeof value !== 'object' || value === null) return null;
  const { createdAt, id } = value as Record<string, unknown>;
  return typeof createdAt === 'number' && typeof id === 'string' ? { createdAt, id } : null;
};

function toReceipt(doc: Doc): Receipt {
  const data = doc.data();
  return {
    uid: doc.id,
    name: typeof data.name === 'string' ? data.name : '',
    read: markOf(data.read),
    readAt: typeof data.readAt === 'number' ? data.readAt : null,
    delivered: markOf(data.delivered),
  };
}

export function createReceiptsPorts(
  sdk: FirebaseSdk,
  listMembers: (channelId: string) => Promise<Array<{ uid: string; name: string }>>,
): { receipts: ReceiptsPort; typing: TypingPort } {
  const sharingQuery = ({ sdk: fs, db }: LoadedFirestore, channelId: string) =>
    fs.query(fs.collection(db, 'channels', channelId, 'receipts'), fs.where('sharing', '==', true));
  const others = (docs: readonly Doc[], uid: string) => docs.filter((doc) => doc.id !== uid).map(toReceipt);

  const getSettings = (): Promise<ReceiptSettings> =>
    guarded(async () => {
      const uid = sdk.requireUid();
      const { sdk: fs, db } = await sdk.firestore();
      const user = await fs.getDoc(fs.doc(db, 'users', uid));
      return { enabled: user.data()?.readReceipts !== false };
    });

  const receipts: ReceiptsPort = {
    listReceipts: (channelId) =>
      guarded(async () => {
        const uid = sdk.requireUid();
        // The rules refuse the list to someone who does not share receipts: they see none.
        if (!(await getSettings()).enabled) return [];
        const firestore = await sdk.firestore();
        const { docs } = await firestore.sdk.getDocs(sharingQuery(firestore, channelId));
        return others(docs, uid);
      }),

    subscribeReceipts(channelId, listener) {
      let stopped = false;
      let stop: (() => void) | null = null;
      void getSettings().then(({ enabled }) => {
        if (stopped) return;
        if (!enabled) return listener([]);
        stop = listenLazily(sdk, 'Live receipts', (firestore) => {
          const uid = sdk.auth().currentUser?.uid;
          if (!uid) return () => undefined;
          return firestore.sdk.onSnapshot(
            sharingQuery(firestore, channelId),
            (snapshot) => listener(others(snapshot.docs, uid)),
            reportListenerError('Live receipts'),
          );
        });
      }, reportListenerError('Live receipts'));
      return () => {
        stopped = true;
        stop?.();
      };
    },

    markDelivered: async (channelId, upTo) => {
      await callFunction(sdk, 'mark_channel_delivered', { channelId, messageId: upTo }, () => undefined);
    },

    getSettings,

    setSettings: (settings) =>
      callFunction(sdk, 'set_read_receipts', { enabled: settings.enabled }, (data) => ({
        enabled: (data as { enabled?: unknown } | null)?.enabled === true,
      })),
  };

  const typing: TypingPort = {
    sendTyping: (channelId) =>
      guarded(async () => {
        const uid = sdk.requireUid();
        const { sdk: fs, db } = await sdk.firestore();
        await fs.setDoc(fs.doc(db, 'channels', channelId, 'typing', uid), { at: fs.serverTimestamp() });
      }),

    subscribeTyping(channelId, listener) {
      const names = new Map<string, string>();
      let asked: Promise<void> | null = null;
      const nameOf = async (uid: string): Promise<string> => {
        if (!names.has(uid)) {
          // The channel's people, once a subscription (again when someone new types).
          asked ??= listMembers(channelId).then(
            (members) => void members.forEach((member) => names.set(member.uid, member.name)),
            () => undefined,
          );
          await asked;
          asked = null;
        }
        return names.get(uid) ?? '';
      };
      return listenLazily(sdk, 'Live typing', ({ sdk: fs, db }) => {
        const uid = sdk.auth().currentUser?.uid;
        if (!uid) return () => undefined;
        // What is there when the listener starts, or when it comes back from the cache after a drop, is history
        // (someone who typed then), not someone typing now: only the changes of a live snapshot after it count.
        // No clock is compared: the device's and the server's need not agree.
        let history = true;
        return fs.onSnapshot(
          fs.collection(db, 'channels', channelId, 'typing'),
          { includeMetadataChanges: true },
          (snapshot) => {
            if (snapshot.metadata.fromCache) return void (history = true);
            if (history) return void (history = false);
            for (const change of snapshot.docChanges()) {
              if (change.type === 'removed' || change.doc.id === uid) continue;
              const typer = change.doc.id;
              void nameOf(typer).then((name) => {
                const signal: TypingSignal = { uid: typer, name };
                listener(signal);
              });
            }
          },
          reportListenerError('Live typing'),
        );
      });
    },
  };

  return { receipts, typing };
}
