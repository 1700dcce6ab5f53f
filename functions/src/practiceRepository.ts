// The consulting practice on Cloud Firestore (Admin SDK; rules do not bind it): one unit of work per change, run in
// a Firestore transaction. The handler (handlers/practice.ts) reads what core/ needs to decide through `tx`, then
// asks for the writes; the writes are buffered and made at the end, after every read, as Firestore requires, so a
// change commits whole or not at all, and a concurrent change to anything it read makes Firestore run it again.
//
// Layout (docs/decisions/practice.md): services/{id}, availability/{consultantId}, bookings/{id},
// slots/{consultantId}_{cell} (one document per 15-minute cell of a consultant's calendar a booking holds: its
// creation in the booking's transaction is "no double booking"), users/{uid}/ledger/{entryId} (created with the
// balance on users/{uid}: a repeat sees the document and changes nothing), operations/{id}, mail/{id} (Trigger
// Email). A person whose balance predates the ledger gets an opening entry with their first move
// (users/{uid}.ledgerOpened), so the sum of their entries is their balance from then on.
import type { DocumentReference, Firestore, Transaction } from 'firebase-admin/firestore';
import { heldSpans } from '../../core/bookings';
import { SLOT_STEP_MS, slotCells } from '../../core/availability';
import {
  text,
  toAvailability,
  toBooking,
  toChannel,
  toInvitation,
  toLedgerEntry,
  toMillis,
  toService,
  toStoredOffer,
  toUserDoc,
} from '../../core/documents';
import { LEDGER_IDS, sortLedger } from '../../core/ledger';
import type {
  Availability,
  Balance,
  Booking,
  Channel,
  ChatMessage,
  Invitation,
  LedgerEntry,
  Service,
  Slot,
  UserDoc,
} from '../../core/model';
import type { OperationRecord } from '../../core/operations';
import type { StoredOffer } from '../../core/offers';
import { publicName } from '../../core/users';
import type { Data } from './documents';
import type { FirestoreSdk } from './firestoreRepository';
import type { TriggerEmailDoc } from './repository';

/** What a unit of work may read, inside its transaction. */
export interface PracticeReads {
  operation(id: string): Promise<OperationRecord | null>;
  booking(id: string): Promise<Booking | null>;
  service(id: string): Promise<Service | null>;
  /** Every service of a consultant (to keep titles apart and count the active ones). */
  servicesOf(consultantId: string): Promise<Service[]>;
  availability(consultantId: string): Promise<Availability | null>;
  /** Whether `uid` is in one of the channels `consultantId` owns. */
  isClientOf(consultantId: string, uid: string): Promise<boolean>;
  /** The 15-minute cells of `spans` other bookings hold (each read, so a race on one reruns the transaction). */
  busy(consultantId: string, spans: readonly Slot[], exceptBookingId?: string): Promise<Slot[]>;
  offer(id: string): Promise<StoredOffer | null>;
  channel(id: string): Promise<Channel | null>;
  user(uid: string): Promise<UserDoc | null>;
  /** users/{uid}'s credits and passes (null: no such user). */
  balance(uid: string): Promise<Balance | null>;
  ledgerEntry(uid: string, id: string): Promise<LedgerEntry | null>;
  invitation(id: string): Promise<Invitation | null>;
  /** The offers of a channel still marked active. */
  activeOffersIn(channelId: string): Promise<StoredOffer[]>;
  /** The ids of a channel's invitations nobody has accepted (pending or past their date). */
  openInvitationIdsIn(channelId: string): Promise<string[]>;
}

/** What a unit of work may write; made after every read, in the same transaction. */
export interface PracticeWrites {
  /** Stores the booking and makes its slot documents exactly heldSpans(booking) (`before`: as it was read). */
  saveBooking(booking: Booking, before: Booking | null): void;
  /** Creates the ledger entry and sets the balance it ends with (with the opening entry first, when due). */
  appendLedger(entry: LedgerEntry): void;
  setOfferStatus(id: string, status: StoredOffer['status']): void;
  createOffer(offer: StoredOffer): void;
  saveService(service: Service): void;
  setAvailability(availability: Availability): void;
  /** A private consultation opened for a card, and its member's record. */
  createPrivateChannel(channel: Channel): void;
  /** A message the backend posts (a card): its trigger counts it as pending and pushes it. */
  addMessage(message: ChatMessage): void;
  addMail(mail: TriggerEmailDoc): void;
  recordOperation(record: OperationRecord): void;
  updateChannel(id: string, fields: Data): void;
  deleteDocument(path: string): void;
  updateInvitation(id: string, fields: Data): void;
  /** A backend-only field of users/{uid} (effectiveConId when a channel changes hands). */
  updateUser(uid: string, fields: Data): void;
}

export type PracticeTx = PracticeReads & PracticeWrites;

/** The practice's Firestore outside transactions: lists and the free-time calendar. */
export interface PracticeRepository {
  /**
   * Runs `work` in a transaction. `serializeOn` (a person's uid): changes of that person's balance from this
   * instance run one after another.
   */
  run<T>(work: (tx: PracticeTx) => Promise<T>, options?: { serializeOn?: string }): Promise<T>;
  /** Every service of a consultant. */
  listServices(consultantId: string): Promise<Service[]>;
  getService(id: string): Promise<Service | null>;
  getAvailability(consultantId: string): Promise<Availability | null>;
  isClientOf(consultantId: string, uid: string): Promise<boolean>;
  /** The cells a consultant's bookings hold in [from, to), as 15-minute spans. */
  busyBetween(consultantId: string, from: number, to: number): Promise<Slot[]>;
  getBooking(id: string): Promise<Booking | null>;
  bookingsOfClient(uid: string): Promise<Booking[]>;
  bookingsOfConsultant(uid: string): Promise<Booking[]>;
  /**
   * bookings' clientName or consultantName for `uid`, who now goes by `name` (on_user_renamed), on each booking
   * that does not say it yet; answers how many changed.
   */
  renameInBookings(uid: string, name: string): Promise<number>;
  /** Requests whose time has come (the expiry sweep). */
  dueRequests(now: number, limit: number): Promise<Booking[]>;
  /** A person's ledger, newest first. */
  ledgerOf(uid: string): Promise<LedgerEntry[]>;
  /** Every offer made to `uid`. */
  offersOf(uid: string): Promise<StoredOffer[]>;
  getOffer(id: string): Promise<StoredOffer | null>;
  getChannel(id: string): Promise<Channel | null>;
  /** Everyone in one of the channels `consultantId` owns. */
  clientsOf(consultantId: string): Promise<string[]>;
  /** Counted for the words said before archiving or deleting a channel. */
  channelContents(
    channelId: string,
    now: number,
  ): Promise<{ messages: number; pendingInvitations: number; activeOffers: number }>;
  /** Deletes a channel and what is only its (messages, members, handle, invitations, offers, pending counts). */
  deleteChannel(channel: Channel): Promise<void>;
  /** The active offers of a channel. */
  activeOffersIn(channelId: string): Promise<StoredOffer[]>;
  /** The offers `consultantId` made (those that name them). */
  offersIssuedBy(consultantId: string): Promise<StoredOffer[]>;
}

const slotId = (consultantId: string, cell: number): string => `${consultantId}_${cell}`;
/** Firestore's limit of writes in one batch. */
const BATCH_LIMIT = 500;
/** How often a contended booking transaction may run before it is given up (the SDK's default is 5). */
const MAX_ATTEMPTS = 30;
/** gRPC ALREADY_EXISTS: what a commit answers when a document it creates exists. */
const ALREADY_EXISTS = 6;
/** How often a change is started again after losing a race to create a document. */
const CREATE_RACE_ATTEMPTS = 5;

export function createPracticeRepository({
  db,
  fieldValue,
  timestampFromMillis,
}: FirestoreSdk): PracticeRepository {
  const ts = (ms: number) => timestampFromMillis(ms);
  const dataOf = (snapshot: { exists: boolean; data(): unknown }): Data | null =>
    snapshot.exists ? ((snapshot.data() ?? {}) as Data) : null;
  /** Whether `uid` is a member of one of `consultantId`'s channels (a query, never under a transaction's locks). */
  const isClientOf = async (consultantId: string, uid: string): Promise<boolean> => {
    if (consultantId === '' || uid === '') return false;
    const { docs } = await db
      .collection('channels')
      .where('ownerId', '==', consultantId)
      .where('members', 'array-contains', uid)
      .limit(1)
      .get();
    return docs.length > 0;
  };

  const serviceData = (s: Service): Data => ({
    consultantId: s.consultantId,
    title: s.title,
    description: s.description,
    durationMinutes: s.durationMinutes,
    priceCredits: s.priceCredits,
    status: s.status,
    createdAt: ts(s.createdAt),
    updatedAt: ts(s.updatedAt),
  });

  const bookingData = (b: Booking): Data => {
    const { id: _id, proposal, closedReason, lateCancellation, payment, ...rest } = b;
    return {
      ...rest,
      startsAt: ts(b.startsAt),
      endsAt: ts(b.endsAt),
      createdAt: ts(b.createdAt),
      updatedAt: ts(b.updatedAt),
      payment: { ...payment },
      proposal: proposal
        ? { startsAt: ts(proposal.startsAt), endsAt: ts(proposal.endsAt) }
        : fieldValue.delete(),
      closedReason: closedReason ?? fieldValue.delete(),
      lateCancellation: lateCancellation === true ? true : fieldValue.delete(),
    };
  };

  const entryData = (e: LedgerEntry): Data => {
    const { id: _id, uid: _uid, createdAt, ...rest } = e;
    return { ...rest, createdAt: ts(createdAt) };
  };

  function unitOfWork(tx: Transaction): { tx: PracticeTx; flush(): void } {
    const writes: Array<() => void> = [];
    const users = new Map<string, Data | null>();
    const opened = new Set<string>();
    const readUser = async (uid: string): Promise<Data | null> => {
      if (!users.has(uid)) users.set(uid, dataOf(await tx.get(db.doc(`users/${uid}`))));
      return users.get(uid) ?? null;
    };
    const channelOf = async (id: string): Promise<Channel | null> => {
      const data = dataOf(await tx.get(db.doc(`channels/${id}`)));
      return data ? toChannel(id, data) : null;
    };
    const work: PracticeTx = {
      async operation(id) {
        const data = dataOf(await tx.get(db.doc(`operations/${id}`)));
        return data
          ? {
              id,
              uid: text(data.uid),
              kind: text(data.kind) as OperationRecord['kind'],
              fingerprint: text(data.fingerprint),
              resultId: text(data.resultId),
              createdAt: typeof data.createdAt === 'number' ? data.createdAt : 0,
            }
          : null;
      },
      async booking(id) {
        const data = dataOf(await tx.get(db.doc(`bookings/${id}`)));
        return data ? toBooking(id, data) : null;
      },
      async service(id) {
        const data = dataOf(await tx.get(db.doc(`services/${id}`)));
        return data ? toService(id, data) : null;
      },
      async servicesOf(consultantId) {
        const { docs } = await tx.get(db.collection('services').where('consultantId', '==', consultantId));
        return docs.map((doc) => toService(doc.id, (doc.data() ?? {}) as Data));
      },
      async availability(consultantId) {
        const data = dataOf(await tx.get(db.doc(`availability/${consultantId}`)));
        return data ? toAvailability(consultantId, data) : null;
      },
      // Outside the transaction's locks: a query holds a lock on every document it could match, so each request
      // would keep the others from opening their private consultation (a new channel of the same owner). Who is in
      // a channel changes on its own time, not in a race with a booking.
      isClientOf,
      async busy(consultantId, spans, exceptBookingId) {
        const cells = [...new Set(spans.flatMap(slotCells))];
        if (cells.length === 0) return [];
        // Read outside the transaction's locks: every client racing for one time would otherwise hold a read lock
        // on its cell and wait on the others' to write it (the emulator's and production's pessimistic locks). The
        // cell is created with create() in this transaction, which fails the commit if someone took it meanwhile;
        // run() then starts the change again, and this read sees it taken.
        const snapshots = await db.getAll(
          ...cells.map((cell) => db.doc(`slots/${slotId(consultantId, cell)}`)),
        );
        return snapshots.flatMap((snapshot, i) => {
          const data = dataOf(snapshot);
          const cell = cells[i] ?? 0;
          return data && data.bookingId !== exceptBookingId
            ? [{ startsAt: cell, endsAt: cell + SLOT_STEP_MS }]
            : [];
        });
      },
      async offer(id) {
        const data = dataOf(await tx.get(db.doc(`offers/${id}`)));
        return data ? toStoredOffer(id, data) : null;
      },
      channel: channelOf,
      async user(uid) {
        const data = await readUser(uid);
        return data ? toUserDoc(uid, data) : null;
      },
      async balance(uid) {
        const data = await readUser(uid);
        if (!data) return null;
        const user = toUserDoc(uid, data);
        return { credits: user.credits, passes: user.passCount };
      },
      async ledgerEntry(uid, id) {
        const data = dataOf(await tx.get(db.doc(`users/${uid}/ledger/${id}`)));
        return data ? toLedgerEntry(uid, id, data) : null;
      },
      async invitation(id) {
        const data = dataOf(await tx.get(db.doc(`invitations/${id}`)));
        if (!data) return null;
        const channel = await channelOf(text(data.channelId));
        const consultant = await readUser(text(data.consultantId));
        return toInvitation(id, data, {
          channelTitle: channel?.title ?? '',
          consultantName: consultant ? publicName(toUserDoc(text(data.consultantId), consultant)) : '',
        });
      },
      async activeOffersIn(channelId) {
        const { docs } = await tx.get(
          db.collection('offers').where('channelId', '==', channelId).where('status', '==', 'active'),
        );
        return docs.map((doc) => toStoredOffer(doc.id, (doc.data() ?? {}) as Data));
      },
      async openInvitationIdsIn(channelId) {
        const { docs } = await tx.get(db.collection('invitations').where('channelId', '==', channelId));
        return docs
          .filter((doc) => ['pending', 'expired'].includes(text(doc.get('status'))))
          .map((doc) => doc.id);
      },

      saveBooking(booking, before) {
        writes.push(() => {
          tx.set(db.doc(`bookings/${booking.id}`), bookingData(booking), { merge: true });
          const wanted = new Set(heldSpans(booking).flatMap(slotCells));
          const had = new Set(before ? heldSpans(before).flatMap(slotCells) : []);
          for (const cell of had) {
            if (!wanted.has(cell)) tx.delete(db.doc(`slots/${slotId(booking.consultantId, cell)}`));
          }
          for (const cell of wanted) {
            if (had.has(cell)) continue;
            // create(): a cell someone else holds fails the commit, whatever a read saw.
            tx.create(db.doc(`slots/${slotId(booking.consultantId, cell)}`), {
              consultantId: booking.consultantId,
              cell,
              bookingId: booking.id,
            });
          }
        });
      },
      appendLedger(entry) {
        const user = users.get(entry.uid);
        if (user === undefined) throw new Error('A ledger entry needs its balance read first (tx.balance)');
        writes.push(() => {
          const userRef = db.doc(`users/${entry.uid}`);
          if (user && user.ledgerOpened !== true && !opened.has(entry.uid)) {
            // The balance from before the ledger, as one opening entry (the embedded server's migration 011).
            const before = toUserDoc(entry.uid, user);
            if (before.credits > 0 || before.passCount > 0) {
              const amount = { credits: before.credits, passes: before.passCount };
              tx.create(userRef.collection('ledger').doc(LEDGER_IDS.opening), {
                kind: 'opening',
                delta: amount,
                amount,
                balanceAfter: amount,
                createdAt: ts(entry.createdAt),
              });
            }
          }
          const wasOpened = user?.ledgerOpened === true || opened.has(entry.uid);
          opened.add(entry.uid);
          tx.create(userRef.collection('ledger').doc(entry.id), entryData(entry));
          // A capture moves nothing: the balance document is left alone (no write lock on a person's balance for it).
          if (entry.delta.credits !== 0 || entry.delta.passes !== 0 || !wasOpened) {
            tx.update(userRef, {
              credits: entry.balanceAfter.credits,
              passCount: entry.balanceAfter.passes,
              ledgerOpened: true,
            });
          }
        });
      },
      setOfferStatus(id, status) {
        writes.push(() => tx.update(db.doc(`offers/${id}`), { status }));
      },
      createOffer(offer) {
        writes.push(() =>
          tx.create(db.doc(`offers/${offer.offeringId}`), {
            offeringId: offer.offeringId,
            userId: offer.userId,
            channelId: offer.channelId,
            ...(offer.serviceId !== undefined ? { serviceId: offer.serviceId } : {}),
            ...(offer.consultantId !== undefined ? { consultantId: offer.consultantId } : {}),
            discountPercent: offer.discountPercent,
            source: offer.source,
            status: offer.status,
            expiresAt: ts(offer.expiresAt),
            createdAt: ts(offer.createdAt),
          }),
        );
      },
      saveService(service) {
        writes.push(() => tx.set(db.doc(`services/${service.id}`), serviceData(service)));
      },
      setAvailability(availability) {
        writes.push(() =>
          tx.set(db.doc(`availability/${availability.consultantId}`), {
            timeZone: availability.timeZone,
            hours: availability.hours,
            updatedAt: ts(availability.updatedAt),
          }),
        );
      },
      createPrivateChannel(channel) {
        writes.push(() => {
          tx.create(db.doc(`channels/${channel.id}`), {
            channelId: channel.channelId,
            ownerId: channel.ownerId,
            title: channel.title,
            description: channel.description,
            members: channel.members,
            createdAt: ts(channel.createdAt),
            kind: 'private',
            names: channel.names ?? {},
          });
          for (const member of channel.members) {
            tx.set(db.doc(`channels/${channel.id}/members/${member}`), {
              uid: member,
              joinedAt: ts(channel.createdAt),
            });
          }
        });
      },
      addMessage(message) {
        writes.push(() =>
          tx.create(db.doc(`channels/${message.channelId}/messages/${message.id}`), {
            senderId: message.senderId,
            senderName: message.senderName,
            text: message.text,
            createdAt: fieldValue.serverTimestamp(),
            ...(message.card ? { card: message.card } : {}),
          }),
        );
      },
      addMail(mail) {
        writes.push(() => tx.create(db.collection('mail').doc(), { ...mail }));
      },
      recordOperation(record) {
        writes.push(() =>
          tx.create(db.doc(`operations/${record.id}`), {
            uid: record.uid,
            kind: record.kind,
            fingerprint: record.fingerprint,
            resultId: record.resultId,
            createdAt: record.createdAt,
          }),
        );
      },
      updateChannel(id, fields) {
        writes.push(() => tx.update(db.doc(`channels/${id}`), fields));
      },
      deleteDocument(path) {
        writes.push(() => tx.delete(db.doc(path)));
      },
      updateInvitation(id, fields) {
        writes.push(() => tx.update(db.doc(`invitations/${id}`), fields));
      },
      updateUser(uid, fields) {
        writes.push(() => tx.update(db.doc(`users/${uid}`), fields));
      },
    };
    return { tx: work, flush: () => writes.forEach((write) => write()) };
  }

  const bookingsWhere = async (field: string, value: string): Promise<Booking[]> => {
    const { docs } = await db.collection('bookings').where(field, '==', value).get();
    return docs.map((doc) => toBooking(doc.id, (doc.data() ?? {}) as Data));
  };

  async function deleteAll(refs: readonly DocumentReference[]): Promise<void> {
    for (let i = 0; i < refs.length; i += BATCH_LIMIT) {
      const batch = db.batch();
      for (const ref of refs.slice(i, i + BATCH_LIMIT)) batch.delete(ref);
      await batch.commit();
    }
  }

  const queues = new Map<string, Promise<unknown>>();

  /** One transaction for `work`, started again when a document it creates turned out to exist (a lost race). */
  async function transact<T>(work: (tx: PracticeTx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await (db as Firestore).runTransaction(
          async (tx) => {
            const unit = unitOfWork(tx);
            const result = await work(unit.tx);
            unit.flush();
            return result;
          },
          { maxAttempts: MAX_ATTEMPTS },
        );
      } catch (error) {
        // gRPC ALREADY_EXISTS from the commit: a slot, an operation or a ledger entry another transaction created
        // first. Nothing of this one was written; its next run reads what that one did.
        const code = (error as { code?: unknown } | null)?.code;
        if (code !== ALREADY_EXISTS || attempt >= CREATE_RACE_ATTEMPTS) throw error;
      }
    }
  }

  return {
    run(work, options = {}) {
      const key = options.serializeOn;
      if (key === undefined) return transact(work);
      // One change of a person's balance at a time from this instance: they would all lock the same document, and
      // Firestore serializes them anyway (a document takes about one write a second); across instances the
      // transactions still decide. Queued per key, so other people are not held up.
      const previous = queues.get(key) ?? Promise.resolve();
      const result = previous.then(() => transact(work));
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      queues.set(key, tail);
      void tail.then(() => {
        if (queues.get(key) === tail) queues.delete(key);
      });
      return result;
    },
    async listServices(consultantId) {
      const { docs } = await db.collection('services').where('consultantId', '==', consultantId).get();
      return docs.map((doc) => toService(doc.id, (doc.data() ?? {}) as Data));
    },
    async getService(id) {
      const data = dataOf(await db.doc(`services/${id}`).get());
      return data ? toService(id, data) : null;
    },
    async getAvailability(consultantId) {
      const data = dataOf(await db.doc(`availability/${consultantId}`).get());
      return data ? toAvailability(consultantId, data) : null;
    },
    isClientOf,
    async busyBetween(consultantId, from, to) {
      const { docs } = await db
        .collection('slots')
        .where('consultantId', '==', consultantId)
        .where('cell', '>=', from)
        .where('cell', '<', to)
        .get();
      return docs.map((doc) => {
        const cell = Number(doc.get('cell'));
        return { startsAt: cell, endsAt: cell + SLOT_STEP_MS };
      });
    },
    async getBooking(id) {
      const data = dataOf(await db.doc(`bookings/${id}`).get());
      return data ? toBooking(id, data) : null;
    },
    bookingsOfClient: (uid) => bookingsWhere('clientId', uid),
    bookingsOfConsultant: (uid) => bookingsWhere('consultantId', uid),
    async renameInBookings(uid, name) {
      const sides = [
        { field: 'clientId', name: 'clientName' },
        { field: 'consultantId', name: 'consultantName' },
      ] as const;
      const stale = (
        await Promise.all(
          sides.map(async (side) => {
            const { docs } = await db.collection('bookings').where(side.field, '==', uid).get();
            return docs.filter((doc) => doc.get(side.name) !== name).map((doc) => ({ doc, side }));
          }),
        )
      ).flat();
      for (let i = 0; i < stale.length; i += BATCH_LIMIT) {
        const batch = db.batch();
        for (const { doc, side } of stale.slice(i, i + BATCH_LIMIT))
          batch.update(doc.ref, { [side.name]: name });
        await batch.commit();
      }
      return stale.length;
    },
    async dueRequests(now, limit) {
      const { docs } = await db
        .collection('bookings')
        .where('state', '==', 'requested')
        .where('startsAt', '<=', ts(now))
        .orderBy('startsAt')
        .limit(limit)
        .get();
      return docs.map((doc) => toBooking(doc.id, (doc.data() ?? {}) as Data));
    },
    async ledgerOf(uid) {
      const { docs } = await db.collection(`users/${uid}/ledger`).get();
      return sortLedger(docs.map((doc) => toLedgerEntry(uid, doc.id, (doc.data() ?? {}) as Data)));
    },
    async offersOf(uid) {
      const { docs } = await db.collection('offers').where('userId', '==', uid).get();
      return docs.map((doc) => toStoredOffer(doc.id, (doc.data() ?? {}) as Data));
    },
    async getOffer(id) {
      const data = dataOf(await db.doc(`offers/${id}`).get());
      return data ? toStoredOffer(id, data) : null;
    },
    async getChannel(id) {
      const data = dataOf(await db.doc(`channels/${id}`).get());
      return data ? toChannel(id, data) : null;
    },
    async clientsOf(consultantId) {
      const { docs } = await db.collection('channels').where('ownerId', '==', consultantId).get();
      return [...new Set(docs.flatMap((doc) => toChannel(doc.id, (doc.data() ?? {}) as Data).members))];
    },
    async channelContents(channelId, now) {
      const [messages, invitations, offers] = await Promise.all([
        db.collection(`channels/${channelId}/messages`).count().get(),
        db
          .collection('invitations')
          .where('channelId', '==', channelId)
          .where('status', '==', 'pending')
          .get(),
        db.collection('offers').where('channelId', '==', channelId).where('status', '==', 'active').get(),
      ]);
      const future = (value: unknown) => toMillis(value) > now;
      return {
        messages: messages.data().count,
        pendingInvitations: invitations.docs.filter((doc) => future(doc.get('expiresAt'))).length,
        activeOffers: offers.docs.filter((doc) => future(doc.get('expiresAt'))).length,
      };
    },
    async deleteChannel(channel) {
      const [messages, members, invitations, offers] = await Promise.all([
        db.collection(`channels/${channel.id}/messages`).get(),
        db.collection(`channels/${channel.id}/members`).get(),
        db.collection('invitations').where('channelId', '==', channel.id).get(),
        db.collection('offers').where('channelId', '==', channel.id).get(),
      ]);
      const pending = [channel.ownerId, ...channel.members].map((uid) =>
        db.doc(`users/${uid}/pending/${channel.id}`),
      );
      await deleteAll([
        ...messages.docs.map((doc) => doc.ref),
        ...members.docs.map((doc) => doc.ref),
        ...invitations.docs.map((doc) => doc.ref),
        ...offers.docs.map((doc) => doc.ref),
        ...pending,
        db.doc(`channelHandles/${channel.channelId}`),
        db.doc(`channels/${channel.id}`),
      ]);
    },
    async activeOffersIn(channelId) {
      const { docs } = await db
        .collection('offers')
        .where('channelId', '==', channelId)
        .where('status', '==', 'active')
        .get();
      return docs.map((doc) => toStoredOffer(doc.id, (doc.data() ?? {}) as Data));
    },
    async offersIssuedBy(consultantId) {
      const { docs } = await db.collection('offers').where('consultantId', '==', consultantId).get();
      return docs.map((doc) => toStoredOffer(doc.id, (doc.data() ?? {}) as Data));
    },
  };
}
