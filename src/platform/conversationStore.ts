// What a conversation must not lose on this device, in IndexedDB (the idb library): the outbox (messages not yet
// acknowledged by the backend), drafts per channel, and read marks not yet acknowledged. Everything is kept per
// account. What is read back is outside input: an entry that is not of the shape written here is deleted and
// counted, never handed on. Without IndexedDB (blocked, or a private window that refuses it) every call answers
// as an empty store would, and the conversation works for as long as the page is open.
import { toAttachment, toAttachmentList } from '@core/attachments';
import type { Attachment } from '@core/attachments';
import { openDB } from 'idb';
import type { DBSchema, IDBPDatabase } from 'idb';
import { DOCUMENT_ID_PATTERN } from '@core/ids';
import { MESSAGE_RAW_MAX } from '@core/messageText';
import { toReplyQuote } from '@core/replies';
import type { ReplyQuote } from '@core/replies';

export const CONVERSATION_DB_NAME = 'qupm-conversations';
const VERSION = 1;

/** A message waiting to be acknowledged: 'pending' is retried, 'refused' waits for Retry or Delete. */
export interface StoredOutboxEntry {
  id: string;
  uid: string;
  channelId: string;
  text: string;
  /** The files it carries (1 to 10), already uploaded, in order. */
  attachments?: Attachment[];
  /** The message it answers (core/replies.ts), as quoted when it was written. */
  replyTo?: ReplyQuote;
  /** When it was written, on this device's clock (its place among the pending ones). */
  createdAt: number;
  status: 'pending' | 'refused';
  /** What the backend said when it refused it. */
  error: string | null;
}

export interface StoredDraft {
  uid: string;
  channelId: string;
  text: string;
}

/** A read mark the backend has not acknowledged yet: read up to this message. */
export interface StoredReadMark {
  uid: string;
  channelId: string;
  messageId: string;
  createdAt: number;
}

interface ConversationDb extends DBSchema {
  outbox: { key: string; value: StoredOutboxEntry; indexes: { byUser: string } };
  drafts: { key: [string, string]; value: StoredDraft; indexes: { byUser: string } };
  readMarks: { key: [string, string]; value: StoredReadMark; indexes: { byUser: string } };
}

export interface RestoredConversations {
  outbox: StoredOutboxEntry[];
  drafts: StoredDraft[];
  readMarks: StoredReadMark[];
  /** Entries that could not be read (not of the shape QuPM writes) and were removed. */
  dropped: number;
}

export interface ConversationStore {
  /** Everything kept for `uid`, outbox entries in the order they were written. */
  load(uid: string): Promise<RestoredConversations>;
  putOutbox(entry: StoredOutboxEntry): Promise<void>;
  deleteOutbox(id: string): Promise<void>;
  /** An empty text removes the draft. */
  putDraft(draft: StoredDraft): Promise<void>;
  putReadMark(mark: StoredReadMark): Promise<void>;
  /** Removes the channel's mark if it is still for `messageId` (a newer one waits to be sent). */
  deleteReadMark(uid: string, channelId: string, messageId: string): Promise<void>;
  /** Forgets everything kept for `uid` (sign-out on a shared device). */
  clear(uid: string): Promise<void>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string =>
  typeof value === 'string' && DOCUMENT_ID_PATTERN.test(value);
const isUid = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 128;
const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * An entry kept before messages carried several files holds one `attachment`: it reads as a list of one, so the
 * message still goes out once after the update (a malformed one is left as it is, for the check to drop).
 */
export function fromOneFile(value: unknown): unknown {
  if (!isRecord(value) || value.attachment === undefined || value.attachments !== undefined) return value;
  const single = toAttachment(value.attachment);
  if (single === null) return value;
  // Changed in place: the reader keeps (and the outbox sends) the list.
  value.attachments = [single];
  delete value.attachment;
  return value;
}

export function isStoredOutboxEntry(value: unknown): value is StoredOutboxEntry {
  return (
    isRecord(value) &&
    isId(value.id) &&
    isUid(value.uid) &&
    isId(value.channelId) &&
    typeof value.text === 'string' &&
    (value.attachments === undefined || toAttachmentList(value.attachments) !== null) &&
    (value.replyTo === undefined || toReplyQuote(value.replyTo) !== null) &&
    // Text, or only files (core/messageText.ts).
    (value.text.trim().length > 0 || value.attachments !== undefined) &&
    value.text.length <= MESSAGE_RAW_MAX &&
    isTime(value.createdAt) &&
    (value.status === 'pending' || value.status === 'refused') &&
    (value.error === null || (typeof value.error === 'string' && value.error.length <= 500))
  );
}

export function isStoredDraft(value: unknown): value is StoredDraft {
  return (
    isRecord(value) &&
    isUid(value.uid) &&
    isId(value.channelId) &&
    typeof value.text === 'string' &&
    value.text.length <= MESSAGE_RAW_MAX
  );
}

export function isStoredReadMark(value: unknown): value is StoredReadMark {
  return (
    isRecord(value) &&
    isUid(value.uid) &&
    isId(value.channelId) &&
    isId(value.messageId) &&
    isTime(value.createdAt)
  );
}

const EMPTY: RestoredConversations = { outbox: [], drafts: [], readMarks: [], dropped: 0 };

function open(): Promise<IDBPDatabase<ConversationDb>> {
  return openDB<ConversationDb>(CONVERSATION_DB_NAME, VERSION, {
    upgrade(db) {
      db.createObjectStore('outbox', { keyPath: 'id' }).createIndex('byUser', 'uid');
      db.createObjectStore('drafts', { keyPath: ['uid', 'channelId'] }).createIndex('byUser', 'uid');
      db.createObjectStore('readMarks', { keyPath: ['uid', 'channelId'] }).createIndex('byUser', 'uid');
    },
  });
}

/** The store on this browser's IndexedDB, opened on first use (and again after a failure). */
export function createConversationStore(): ConversationStore {
  let db: Promise<IDBPDatabase<ConversationDb>> | null = null;
  const database = (): Promise<IDBPDatabase<ConversationDb>> => {
    if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
    db ??= open().catch((error: unknown) => {
      db = null;
      throw error;
    });
    return db;
  };
  /** A write that cannot be made is logged: the page keeps working from memory. */
  const attempt = async (what: string, work: (db: IDBPDatabase<ConversationDb>) => Promise<unknown>) => {
    try {
      await work(await database());
    } catch (error) {
      console.warn(`Could not ${what} on this device`, error);
    }
  };

  return {
    async load(uid) {
      let handle: IDBPDatabase<ConversationDb>;
      try {
        handle = await database();
      } catch (error) {
        console.warn('Could not read unsent messages and drafts on this device', error);
        return EMPTY;
      }
      const tx = handle.transaction(['outbox', 'drafts', 'readMarks'], 'readwrite');
      let dropped = 0;
      // Each store's entries of this account; a value that is not of QuPM's shape is deleted where it lies.
      const read = async <T>(
        store: 'outbox' | 'drafts' | 'readMarks',
        valid: (value: unknown) => value is T,
      ): Promise<T[]> => {
        const kept: T[] = [];
        let cursor = await tx.objectStore(store).index('byUser').openCursor(uid);
        while (cursor) {
          if (valid(cursor.value)) kept.push(cursor.value);
          else {
            dropped += 1;
            await cursor.delete();
          }
          cursor = await cursor.continue();
        }
        return kept;
      };
      try {
        const outbox = await read('outbox', (value): value is StoredOutboxEntry =>
          isStoredOutboxEntry(fromOneFile(value)),
        );
        const drafts = await read('drafts', isStoredDraft);
        const readMarks = await read('readMarks', isStoredReadMark);
        await tx.done;
        outbox.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        return { outbox, drafts, readMarks, dropped };
      } catch (error) {
        console.warn('Could not read unsent messages and drafts on this device', error);
        return EMPTY;
      }
    },
    putOutbox: (entry) => attempt('keep an unsent message', (db) => db.put('outbox', entry)),
    deleteOutbox: (id) => attempt('forget a sent message', (db) => db.delete('outbox', id)),
    putDraft: (draft) =>
      attempt('keep a draft', (db) =>
        draft.text === '' ? db.delete('drafts', [draft.uid, draft.channelId]) : db.put('drafts', draft),
      ),
    putReadMark: (mark) => attempt('keep a read mark', (db) => db.put('readMarks', mark)),
    deleteReadMark: (uid, channelId, messageId) =>
      attempt('forget a sent read mark', async (db) => {
        const tx = db.transaction('readMarks', 'readwrite');
        const stored = await tx.store.get([uid, channelId]);
        if (stored?.messageId === messageId) await tx.store.delete([uid, channelId]);
        await tx.done;
      }),
    clear: (uid) =>
      attempt('forget unsent messages and drafts', async (db) => {
        const tx = db.transaction(['outbox', 'drafts', 'readMarks'], 'readwrite');
        for (const name of ['outbox', 'drafts', 'readMarks'] as const) {
          let cursor = await tx.objectStore(name).index('byUser').openCursor(uid);
          while (cursor) {
            await cursor.delete();
            cursor = await cursor.continue();
          }
        }
        await tx.done;
      }),
  };
}

let shared: ConversationStore | null = null;

/** The one store of this page (the outbox and the read marks share its connection). */
export function browserConversationStore(): ConversationStore {
  shared ??= createConversationStore();
  return shared;
}
