// The device's last known state, on an in-memory IndexedDB (fake-indexeddb: the browser edge, faked; the idb
// library, zod and this module run for real).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import {
  LAST_KNOWN_DB_NAME,
  LAST_KNOWN_FORMAT,
  LAST_KNOWN_MAX_BOOKINGS,
  LAST_KNOWN_MAX_RECEIVED_OFFERS,
  LAST_KNOWN_PAGE_MESSAGES,
  createLastKnownStore,
  pagesOverCap,
} from '@/platform/lastKnownStore';
import type { KnownAccount, StoredAccount } from '@/platform/lastKnownStore';
import type { Booking, ChannelOverview, ChatMessage } from '@core/model';
import type { ReceivedOffer } from '@core/offers';

const UID = 'uidMember00000000001';
const OTHER = 'uidOther000000000001';
const CHANNEL = 'ChannelStore00000001';

const account: KnownAccount = {
  isConsultant: false,
  effectiveConId: 'uidConsultant0000001',
  isAdmin: false,
  nickname: 'Morgan',
  credits: 3,
  passCount: 1,
  userDocExists: true,
  notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
};

const message = (n: number, channelId = CHANNEL): ChatMessage => ({
  id: `Msg${String(n).padStart(17, '0')}`,
  channelId,
  senderId: UID,
  senderName: 'Morgan',
  text: `message ${n}`,
  createdAt: 1_000 + n,
});

const overview: ChannelOverview = {
  channel: {
    id: CHANNEL,
    channelId: 'strategy-studio',
    ownerId: 'uidConsultant0000001',
    title: 'Strategy Studio',
    description: '',
    members: [UID],
    createdAt: 5,
  },
  lastMessage: message(1),
  unread: 2,
};

const booking = (n: number): Booking => ({
  id: `Booking${String(n).padStart(13, '0')}`,
  consultantId: 'uidConsultant0000001',
  clientId: UID,
  serviceId: 'ServicePricing000001',
  serviceTitle: 'Pricing deep dive',
  durationMinutes: 60,
  startsAt: 10_000_000 + n * 3_600_000,
  endsAt: 10_000_000 + (n + 1) * 3_600_000,
  state: 'confirmed',
  payment: {
    method: 'credits',
    amount: 2,
    listPrice: 3,
    offerId: 'OfferWelcome00000001',
    discountPercent: 34,
    status: 'captured',
  },
  channelId: 'ChannelPrivate000001',
  clientTimeZone: 'Europe/London',
  consultantTimeZone: 'Europe/London',
  sequence: 1,
  createdAt: 7,
  updatedAt: 8,
});

const received = (n: number): ReceivedOffer => ({
  offeringId: `Offer${String(n).padStart(15, '0')}`,
  discountPercent: 20,
  source: 'Welcome offer',
  channelId: CHANNEL,
  status: 'active',
  expiresAt: 99_000_000,
  createdAt: 6,
  consultantId: 'uidConsultant0000001',
  serviceId: 'ServicePricing000001',
  serviceTitle: 'Pricing deep dive',
  state: 'active',
});

/** An account record with nothing of the practice read live yet. */
const kept = (
  uid: string,
  savedAt: number,
  parts: Partial<Omit<StoredAccount, 'format' | 'uid' | 'savedAt'>> = {},
): Omit<StoredAccount, 'format'> => ({
  uid,
  savedAt,
  account,
  channels: null,
  offers: null,
  bookings: null,
  receivedOffers: null,
  ...parts,
});

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('createLastKnownStore', () => {
  it('gives back what was kept for the account, as it was written', async () => {
    const store = createLastKnownStore();
    const parts = {
      channels: [overview],
      offers: [],
      bookings: { savedAt: 40, upcoming: [booking(1)] },
      receivedOffers: [received(1)],
    };
    await store.putAccount(kept(UID, 42, parts));
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 43, messages: [message(1), message(2)] });
    const loaded = await createLastKnownStore().load(UID);
    expect(loaded.account).toEqual({ format: 2, uid: UID, savedAt: 42, account, ...parts });
    expect(loaded.pages).toEqual([
      { format: 2, uid: UID, channelId: CHANNEL, savedAt: 43, messages: [message(1), message(2)] },
    ]);
  });

  it("never hands one person's state to another, and forgets the other's when someone else loads", async () => {
    const store = createLastKnownStore();
    await store.putAccount(
      kept(OTHER, 1, {
        channels: [overview],
        bookings: { savedAt: 40, upcoming: [booking(1)] },
        receivedOffers: [received(1)],
      }),
    );
    await store.putPage({ uid: OTHER, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    // A shared device keeps one person's state at a time: the other's is gone.
    expect(await store.load(OTHER)).toEqual({ account: null, pages: [] });
  });

  it('discards a damaged or old-format record without an error', async () => {
    const store = createLastKnownStore();
    await store.putAccount(kept(UID, 1));
    const db = await openDB(LAST_KNOWN_DB_NAME);
    await db.put('accounts', { format: 0, uid: UID, credits: 'lots' }, UID);
    await db.put('pages', { format: 1, uid: UID, channelId: CHANNEL, savedAt: 1, messages: [{ id: 5 }] });
    db.close();
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    const after = await openDB(LAST_KNOWN_DB_NAME);
    expect(await after.getAll('accounts')).toEqual([]);
    expect(await after.getAll('pages')).toEqual([]);
    after.close();
  });

  it('discards a record of the format before bookings were kept', async () => {
    const store = createLastKnownStore();
    await store.putAccount(kept(UID, 1));
    const db = await openDB(LAST_KNOWN_DB_NAME);
    // What the previous build wrote: right in every field it had, but not of this format.
    const { bookings: _b, receivedOffers: _r, ...before } = kept(UID, 1, { channels: [overview] });
    await db.put('accounts', { ...before, format: 1 }, UID);
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    expect(await db.count('accounts')).toBe(0);
    db.close();
  });

  it('reads a damaged part of the record as unknown, and still shows the rest', async () => {
    const store = createLastKnownStore();
    await store.putAccount(kept(UID, 1));
    const db = await openDB(LAST_KNOWN_DB_NAME);
    const whole = kept(UID, 1, {
      channels: [overview],
      bookings: { savedAt: 1, upcoming: [booking(1)] },
      receivedOffers: [received(1)],
    });
    const damagedBooking = { ...booking(1), startsAt: 'tomorrow' } as unknown as Booking;
    const damagedOffer = { ...received(1), state: 'pending' } as unknown as ReceivedOffer;
    const damagedOverview = { ...overview, lastMessage: { ...message(1), id: 5 } };
    await db.put(
      'accounts',
      {
        format: LAST_KNOWN_FORMAT,
        ...whole,
        channels: [damagedOverview],
        bookings: { savedAt: 1, upcoming: [damagedBooking] },
        receivedOffers: [damagedOffer],
      },
      UID,
    );
    expect((await store.load(UID)).account).toEqual({
      format: LAST_KNOWN_FORMAT,
      ...whole,
      channels: null,
      bookings: null,
      receivedOffers: null,
    });
    await db.put('accounts', { format: LAST_KNOWN_FORMAT, ...whole, account: { nickname: 7 } }, UID);
    expect((await store.load(UID)).account).toEqual({ format: LAST_KNOWN_FORMAT, ...whole, account: null });
    db.close();
  });

  it('keeps the soonest bookings and the first received offers up to their caps', async () => {
    const store = createLastKnownStore();
    const bookings = Array.from({ length: LAST_KNOWN_MAX_BOOKINGS + 3 }, (_, i) => booking(i));
    const offers = Array.from({ length: LAST_KNOWN_MAX_RECEIVED_OFFERS + 3 }, (_, i) => received(i));
    await store.putAccount(
      kept(UID, 1, { bookings: { savedAt: 1, upcoming: bookings }, receivedOffers: offers }),
    );
    const loaded = (await store.load(UID)).account;
    expect(loaded?.bookings).toEqual({ savedAt: 1, upcoming: bookings.slice(0, LAST_KNOWN_MAX_BOOKINGS) });
    expect(loaded?.receivedOffers).toEqual(offers.slice(0, LAST_KNOWN_MAX_RECEIVED_OFFERS));
  });

  it('keeps two pages of a channel, and drops the oldest channels first past the caps', async () => {
    const store = createLastKnownStore();
    const many = Array.from({ length: LAST_KNOWN_PAGE_MESSAGES + 5 }, (_, i) => message(i));
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: many });
    const [page] = (await store.load(UID)).pages;
    expect(page?.messages).toEqual(many.slice(-LAST_KNOWN_PAGE_MESSAGES));

    const pages = ['ChannelA000000000001', 'ChannelB000000000001', 'ChannelC000000000001'].map((id, i) => ({
      channelId: id,
      savedAt: 10 + i,
      messages: [message(i, id)],
    }));
    const one = JSON.stringify(pages[0]?.messages).length;
    // Room for two pages: the one written longest ago goes.
    expect(pagesOverCap(pages, 2 * one + 1)).toEqual(['ChannelA000000000001']);
    expect(pagesOverCap(pages, 10 * one, 1)).toEqual(['ChannelB000000000001', 'ChannelA000000000001']);
    expect(pagesOverCap(pages)).toEqual([]);
  });

  it('forgets everything at sign-out', async () => {
    const store = createLastKnownStore();
    await store.putAccount(
      kept(UID, 1, { bookings: { savedAt: 40, upcoming: [booking(1)] }, receivedOffers: [received(1)] }),
    );
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    await store.clear();
    const db = await openDB(LAST_KNOWN_DB_NAME);
    expect(await db.count('accounts')).toBe(0);
    expect(await db.count('pages')).toBe(0);
    db.close();
  });

  it('reads the device ahead of the person being known, and hands that read to the load', async () => {
    await createLastKnownStore().putAccount(kept(UID, 1, { channels: [overview] }));
    const store = createLastKnownStore();
    store.preload();
    // Let the read ahead finish, then change the database behind the store's back: the load answers the read.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const db = await openDB(LAST_KNOWN_DB_NAME);
    await db.put('accounts', { format: 2, ...kept(UID, 2) }, UID);
    db.close();
    expect((await store.load(UID)).account).toMatchObject({ savedAt: 1, channels: [overview] });
    // Used once: a later load reads again.
    expect((await store.load(UID)).account).toMatchObject({ savedAt: 2, channels: null });
  });

  it('never hands out a read ahead that its own writes or a sign-out have made stale', async () => {
    const store = createLastKnownStore();
    await store.putAccount(kept(UID, 1));
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    store.preload();
    await store.putAccount(kept(UID, 5));
    expect((await store.load(UID)).account).toMatchObject({ savedAt: 5 });

    store.preload();
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 6, messages: [message(2)] });
    expect((await store.load(UID)).pages).toMatchObject([{ savedAt: 6, messages: [message(2)] }]);

    store.preload();
    await store.clear();
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
  });

  it("forgets another person's records read ahead when this person loads", async () => {
    const store = createLastKnownStore();
    await store.putAccount(kept(OTHER, 1, { channels: [overview] }));
    await store.putPage({ uid: OTHER, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    store.preload();
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    const db = await openDB(LAST_KNOWN_DB_NAME);
    expect(await db.count('accounts')).toBe(0);
    expect(await db.count('pages')).toBe(0);
    db.close();
  });

  it('keeps state in a database something else made first, without its stores', async () => {
    (await openDB(LAST_KNOWN_DB_NAME, 1)).close();
    const store = createLastKnownStore();
    await store.putAccount(kept(UID, 7));
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 7, messages: [message(1)] });
    const loaded = await createLastKnownStore().load(UID);
    expect(loaded.account?.savedAt).toBe(7);
    expect(loaded.pages.map((page) => page.messages.length)).toEqual([1]);
  });

  it("steps aside for a newer build's database in another tab", async () => {
    const store = createLastKnownStore();
    await store.putAccount(kept(UID, 1));
    const newer = await new Promise<string>((resolve) => {
      void openDB(LAST_KNOWN_DB_NAME, 3, { blocked: () => resolve('blocked') }).then((db) => {
        db.close();
        resolve('opened');
      });
    });
    expect(newer).toBe('opened');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    // The newer version is there now: this build cannot open it and keeps nothing, without an error.
    await store.putAccount(kept(UID, 2));
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    warn.mockRestore();
  });

  it('answers as an empty store without IndexedDB', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    // @ts-expect-error -- a browser that refuses IndexedDB
    delete globalThis.indexedDB;
    const store = createLastKnownStore();
    await store.putAccount(kept(UID, 1));
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
