// The last known state of a signed-in person on this device, in IndexedDB (the idb library, as the outbox): their
// account as the home shows it, their channel overview, their active and received offers, their upcoming
// bookings, and the newest messages of each channel they opened. A start draws from it at once; live data replaces it. Everything is kept per account and
// read back for one account only, so another person signing in on the device never sees it. What is read back is
// outside input (an older build's format, a damaged record): it is checked with zod at read, and a record that
// is not of this format is deleted, never handed on and never an error screen. The pages are bounded: past
// LAST_KNOWN_MAX_BYTES (or LAST_KNOWN_MAX_CHANNELS channels) the channels written longest ago lose theirs first.
import * as z from 'zod/mini';
import { openDB } from 'idb';
import type { DBSchema, IDBPDatabase } from 'idb';
import {
  bookingAnswer,
  channelOverviewAnswer,
  chatMessageAnswer,
  notificationSettingsAnswer,
  offerAnswer,
  receivedOfferAnswer,
} from '@core/answers';
import type { Booking, ChannelOverview, ChatMessage, NotificationSettings, Offer } from '@core/model';
import type { ReceivedOffer } from '@core/offers';

export const LAST_KNOWN_DB_NAME = 'qupm-last-known';
/**
 * 2: each store is made where it is missing, so a database something else made first (empty, at 1) gets them.
 */
const VERSION = 2;
/** The format of what is written here; a record of another is an older build's and is discarded (2: bookings). */
export const LAST_KNOWN_FORMAT = 2;
/** Two pages of a conversation (MESSAGES_PAGE is 30). */
export const LAST_KNOWN_PAGE_MESSAGES = 60;
/** All kept pages of one account together, as JSON characters. */
export const LAST_KNOWN_MAX_BYTES = 1_500_000;
export const LAST_KNOWN_MAX_CHANNELS = 30;
/** The soonest upcoming bookings kept, and the received offers (active ones first, as listMyOffers sorts them). */
export const LAST_KNOWN_MAX_BOOKINGS = 50;
export const LAST_KNOWN_MAX_RECEIVED_OFFERS = 50;

/** The person as the home shows them (the user state, without the auth user the session gives). */
export interface KnownAccount {
  isConsultant: boolean;
  effectiveConId: string;
  isAdmin: boolean;
  nickname: string;
  credits: number;
  passCount: number;
  domainId?: string;
  userDocExists: boolean;
  notificationSettings: NotificationSettings | null;
}

export interface StoredAccount {
  format: number;
  uid: string;
  /** When live data last wrote it, on this device's clock: the "as of" the page shows. */
  savedAt: number;
  account: KnownAccount | null;
  channels: ChannelOverview[] | null;
  offers: Offer[] | null;
  /**
   * The upcoming bookings, soonest first, as of their own time (a session may never open /services); null: never
   * read live on this device (unknown, not none).
   */
  bookings: KeptBookings | null;
  /** Every offer made to the person, with its state and service (listMyOffers); null: never read live. */
  receivedOffers: ReceivedOffer[] | null;
}

export interface KeptBookings {
  savedAt: number;
  upcoming: Booking[];
}

export interface StoredPage {
  format: number;
  uid: string;
  channelId: string;
  savedAt: number;
  /** The newest messages of the channel, oldest first. */
  messages: ChatMessage[];
}

export interface LastKnown {
  account: StoredAccount | null;
  pages: StoredPage[];
}

/** The stores' records as read, each list beside its keys (in the same order). */
interface RawRecords {
  accountKeys: IDBValidKey[];
  accounts: unknown[];
  pageKeys: IDBValidKey[];
  pages: unknown[];
}

interface LastKnownDb extends DBSchema {
  accounts: { key: string; value: StoredAccount };
  pages: { key: [string, string]; value: StoredPage; indexes: { byUser: string } };
}

const time = z.number().check(z.refine((value) => Number.isSafeInteger(value) && value >= 0));
const uid = z.string().check(z.minLength(1), z.maxLength(128));
const format = z.literal(LAST_KNOWN_FORMAT);

const accountSchema: z.ZodMiniType<KnownAccount> = z.object({
  isConsultant: z.boolean(),
  effectiveConId: z.string(),
  isAdmin: z.boolean(),
  nickname: z.string(),
  credits: z.number(),
  passCount: z.number(),
  domainId: z.optional(z.string()),
  userDocExists: z.boolean(),
  notificationSettings: z.nullable(notificationSettingsAnswer),
});

// Each part of an account's record is read on its own: a damaged part is unknown (null, shown as unknown), and the
// others still show (a bad message id in the overview must not take the person's name and balances with it).
const storedAccountHead = z.object({ format, uid, savedAt: time });
const storedAccountParts = {
  account: z.nullable(accountSchema),
  channels: z.nullable(z.array(channelOverviewAnswer)),
  offers: z.nullable(z.array(offerAnswer)),
  bookings: z.nullable(
    z.object({
      savedAt: time,
      upcoming: z.array(bookingAnswer).check(z.maxLength(LAST_KNOWN_MAX_BOOKINGS)),
    }),
  ),
  receivedOffers: z.nullable(z.array(receivedOfferAnswer).check(z.maxLength(LAST_KNOWN_MAX_RECEIVED_OFFERS))),
};

const storedPageSchema: z.ZodMiniType<StoredPage> = z.object({
  format,
  uid,
  channelId: z.string(),
  savedAt: time,
  messages: z.array(chatMessageAnswer).check(z.maxLength(LAST_KNOWN_PAGE_MESSAGES)),
});

/**
 * The record, when it is one this build wrote (zod's reading: unknown fields left out), else null; a damaged part
 * of it is null (unknown).
 */
export function readStoredAccount(value: unknown): StoredAccount | null {
  const head = storedAccountHead.safeParse(value);
  if (!head.success) return null;
  const raw = value as Record<string, unknown>;
  const part = <K extends keyof typeof storedAccountParts>(key: K) => {
    const result = storedAccountParts[key].safeParse(raw[key]);
    return (result.success ? result.data : null) as StoredAccount[K];
  };
  return {
    ...head.data,
    account: part('account'),
    channels: part('channels'),
    offers: part('offers'),
    bookings: part('bookings'),
    receivedOffers: part('receivedOffers'),
  };
}

export function readStoredPage(value: unknown): StoredPage | null {
  const result = storedPageSchema.safeParse(value);
  return result.success ? result.data : null;
}

/** The pages to drop so that the rest fit the caps: the ones written longest ago first. */
export function pagesOverCap(
  pages: readonly Pick<StoredPage, 'channelId' | 'savedAt' | 'messages'>[],
  maxBytes = LAST_KNOWN_MAX_BYTES,
  maxChannels = LAST_KNOWN_MAX_CHANNELS,
): string[] {
  const newestFirst = [...pages].sort(
    (a, b) => b.savedAt - a.savedAt || (a.channelId < b.channelId ? -1 : 1),
  );
  const dropped: string[] = [];
  let bytes = 0;
  newestFirst.forEach((page, index) => {
    bytes += JSON.stringify(page.messages).length;
    if (index >= maxChannels || bytes > maxBytes) dropped.push(page.channelId);
  });
  return dropped;
}

/** The account's lists cut to their caps: the soonest bookings, the first offers of listMyOffers' order. */
export function boundedAccount(record: Omit<StoredAccount, 'format'>): Omit<StoredAccount, 'format'> {
  return {
    ...record,
    bookings: record.bookings && {
      savedAt: record.bookings.savedAt,
      upcoming: record.bookings.upcoming.slice(0, LAST_KNOWN_MAX_BOOKINGS),
    },
    receivedOffers: record.receivedOffers?.slice(0, LAST_KNOWN_MAX_RECEIVED_OFFERS) ?? null,
  };
}

export interface LastKnownStore {
  /**
   * Starts reading the device's records before anyone is known (a start with a session under way), so that
   * `load` finds them read: opening the database and reading it take a start several hundred ms (`bench/RESULTS.md`).
   */
  preload(): void;
  /** What is kept for `uid` (and nothing of anyone else, which is deleted: one person's device at a time). */
  load(uid: string): Promise<LastKnown>;
  putAccount(record: Omit<StoredAccount, 'format'>): Promise<void>;
  /** Keeps a channel's newest messages, then drops the oldest channels' pages past the caps. */
  putPage(record: Omit<StoredPage, 'format'>): Promise<void>;
  /** Forgets everything of everyone (sign-out on a shared device). */
  clear(): Promise<void>;
}

/**
 * Opens the database, making what is missing. A newer build's tab asking for a later version gets it at once: this
 * connection closes (`onClosed` lets the next use open again) instead of making that tab wait.
 */
function open(onClosed: () => void): Promise<IDBPDatabase<LastKnownDb>> {
  return openDB<LastKnownDb>(LAST_KNOWN_DB_NAME, VERSION, {
    upgrade(db) {
      if (!db.objectStoreNames.contains('accounts')) db.createObjectStore('accounts');
      if (!db.objectStoreNames.contains('pages')) {
        db.createObjectStore('pages', { keyPath: ['uid', 'channelId'] }).createIndex('byUser', 'uid');
      }
    },
    blocking(_current, _wanted, event) {
      (event.target as IDBDatabase).close();
      onClosed();
    },
  });
}

/** The store on this browser's IndexedDB; without it (blocked, a private window) it keeps nothing. */
export function createLastKnownStore(): LastKnownStore {
  let db: Promise<IDBPDatabase<LastKnownDb>> | null = null;
  const database = (): Promise<IDBPDatabase<LastKnownDb>> => {
    if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
    db ??= open(() => {
      db = null;
    }).catch((error: unknown) => {
      db = null;
      throw error;
    });
    return db;
  };
  const attempt = async (what: string, work: (db: IDBPDatabase<LastKnownDb>) => Promise<unknown>) => {
    try {
      await work(await database());
    } catch (error) {
      console.warn(`Could not ${what} on this device`, error);
    }
  };

  /** Every record as stored, with its key: read at once (one readonly transaction, no cursor's round trips). */
  const readAll = async (): Promise<RawRecords> => {
    const handle = await database();
    const tx = handle.transaction(['accounts', 'pages'], 'readonly');
    const [accountKeys, accounts, pageKeys, pages] = await Promise.all([
      tx.objectStore('accounts').getAllKeys(),
      tx.objectStore('accounts').getAll() as Promise<unknown[]>,
      tx.objectStore('pages').getAllKeys(),
      tx.objectStore('pages').getAll() as Promise<unknown[]>,
      tx.done,
    ]);
    return { accountKeys, accounts, pageKeys, pages };
  };
  // What preload read; any write or clear makes it stale, and the first load uses it up.
  let preloaded: Promise<RawRecords> | null = null;
  const writing = <T>(work: () => Promise<T>): Promise<T> => {
    preloaded = null;
    return work();
  };

  return {
    preload() {
      if (typeof indexedDB === 'undefined') return;
      preloaded ??= readAll();
      // Its failure is load's to report (it reads again).
      preloaded.catch(() => undefined);
    },
    async load(owner) {
      try {
        const early = preloaded;
        preloaded = null;
        const raw = (early && (await early.catch(() => null))) ?? (await readAll());
        let account: StoredAccount | null = null;
        const foreignAccounts: string[] = [];
        raw.accounts.forEach((value, index) => {
          const key = raw.accountKeys[index] as string;
          const read = key === owner ? readStoredAccount(value) : null;
          if (read?.uid === owner) account = read;
          else foreignAccounts.push(key);
        });
        const pages: StoredPage[] = [];
        const foreignPages: [string, string][] = [];
        raw.pages.forEach((value, index) => {
          const read = readStoredPage(value);
          if (read?.uid === owner) pages.push(read);
          else foreignPages.push(raw.pageKeys[index] as [string, string]);
        });
        // Anyone else's records, or damaged ones, go before this person's are handed out.
        if (foreignAccounts.length > 0 || foreignPages.length > 0) {
          const tx = (await database()).transaction(['accounts', 'pages'], 'readwrite');
          await Promise.all([
            ...foreignAccounts.map((key) => tx.objectStore('accounts').delete(key)),
            ...foreignPages.map((key) => tx.objectStore('pages').delete(key)),
            tx.done,
          ]);
        }
        return { account, pages };
      } catch (error) {
        console.warn('Could not read the last known state on this device', error);
        return { account: null, pages: [] };
      }
    },
    putAccount: (record) =>
      writing(() =>
        attempt('keep the last known state', (db) =>
          db.put('accounts', { format: LAST_KNOWN_FORMAT, ...boundedAccount(record) }, record.uid),
        ),
      ),
    putPage: (record) =>
      writing(() =>
        attempt('keep the newest messages', async (db) => {
          const tx = db.transaction('pages', 'readwrite');
          const messages = record.messages.slice(-LAST_KNOWN_PAGE_MESSAGES);
          await tx.store.put({ format: LAST_KNOWN_FORMAT, ...record, messages });
          const kept = await tx.store.index('byUser').getAll(record.uid);
          for (const channelId of pagesOverCap(kept)) await tx.store.delete([record.uid, channelId]);
          await tx.done;
        }),
      ),
    clear: () =>
      writing(() =>
        attempt('forget the last known state', async (db) => {
          const tx = db.transaction(['accounts', 'pages'], 'readwrite');
          await Promise.all([tx.objectStore('accounts').clear(), tx.objectStore('pages').clear(), tx.done]);
        }),
      ),
  };
}

let shared: LastKnownStore | null = null;

export function browserLastKnownStore(): LastKnownStore {
  shared ??= createLastKnownStore();
  return shared;
}
