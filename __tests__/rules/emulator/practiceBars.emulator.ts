// The practice's bars on the Firestore emulator: functions/' own handlers (functions/src/handlers/practice.ts)
// over the real Admin SDK and practiceRepository.ts, racing in real Firestore transactions. 200 simultaneous
// bookings by one client with credits for 10 → exactly 10; the balance never below 0 and equal to the sum of the
// ledger; 50 clients racing for one free slot → one booking. Plus the ledger and slot documents a booking
// leaves, a repeat of its operation, and a bad request holding nothing. Run with the emulator's address in
// FIRESTORE_EMULATOR_HOST (npm run test:rules).
import { deleteApp, initializeApp } from 'firebase-admin/app';
import type { App } from 'firebase-admin/app';
import { FieldValue, Timestamp, getFirestore } from 'firebase-admin/firestore';
import type { Firestore } from 'firebase-admin/firestore';
import { newDocumentId } from '../../../core/ids';
import type { Booking, Slot } from '../../../core/model';
import type { Caller } from '../../../core/permissions';
import { QupmError } from '../../../core/errors';
import { createFirestoreRepository } from '../../../functions/src/firestoreRepository';
import { createPracticeRepository } from '../../../functions/src/practiceRepository';
import { practiceCallables } from '../../../functions/src/handlers/practice';
import type { Deps } from '../../../functions/src/repository';

// A bound that only stops a hang: at CI's load of 18 the 200 contended transactions of the first case took longer
// than 120 s on the emulator, and the next case's setup then failed beside them.
jest.setTimeout(300_000);

const PROJECT = 'demo-qupm-practice';
// Thursday 15 January 2026, 12:00 UTC.
const NOW = Date.UTC(2026, 0, 15, 12);
const DAY = 24 * 60 * 60 * 1000;
const CONSULTANT = 'ConsultantUid0000001';
const CHANNEL = 'ChannelStudio0000001';

/**
 * Function instances: each its own Admin SDK app (its own connection), as Cloud Functions runs several at once;
 * the races below are spread over them.
 */
const INSTANCES = 4;
let apps: App[];
let db: Firestore;
let deps: Deps;
let instances: Deps[];

function instance(name: string): { app: App; deps: Deps } {
  const app = initializeApp({ projectId: PROJECT }, `practice-bars-${name}-${Date.now()}`);
  const sdk = {
    db: getFirestore(app),
    fieldValue: FieldValue,
    timestampFromMillis: (ms: number) => Timestamp.fromMillis(ms),
  };
  const deps: Deps = {
    repo: createFirestoreRepository(sdk),
    practice: createPracticeRepository(sdk),
    push: { send: async () => [] },
    files: {
      list: async () => [],
      read: async () => new Uint8Array(),
      delete: async () => undefined,
      exists: async () => false,
    },
    accounts: {
      lookup: async () => null,
      admins: async () => new Set(),
      deleteAccount: async () => undefined,
      revokeSessions: async () => 0,
      revokedBefore: async () => null,
      sessionStands: async () => true,
    },
    now: () => NOW,
    appOrigin: () => 'https://qupm.test',
  };
  return { app, deps };
}

beforeAll(() => {
  const made = Array.from({ length: INSTANCES }, (_, i) => instance(String(i)));
  apps = made.map((m) => m.app);
  instances = made.map((m) => m.deps);
  deps = instances[0] as Deps;
  db = getFirestore(apps[0] as App);
});

afterAll(() => Promise.all(apps.map((app) => deleteApp(app))));

beforeEach(async () => {
  const host = process.env.FIRESTORE_EMULATOR_HOST;
  const res = await fetch(`http://${host}/emulator/v1/projects/${PROJECT}/databases/(default)/documents`, {
    method: 'DELETE',
  });
  expect(res.ok).toBe(true);
  await db.doc(`users/${CONSULTANT}`).set({
    email: 'dana@qupm.test',
    nickname: 'Dana',
    isOwner: true,
    credits: 0,
    passCount: 0,
    effectiveConId: CONSULTANT,
    notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
  });
  await db.doc(`channels/${CHANNEL}`).set({
    channelId: 'strategy-studio',
    ownerId: CONSULTANT,
    title: 'Strategy Studio',
    description: '',
    members: [],
    createdAt: Timestamp.fromMillis(NOW - DAY),
  });
  await db.doc(`availability/${CONSULTANT}`).set({
    timeZone: 'Europe/London',
    hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
    updatedAt: Timestamp.fromMillis(NOW),
  });
});

const consultant: Caller = { uid: CONSULTANT, email: 'dana@qupm.test', isAdmin: false };

/** Clients of the consultant (members of the channel), each with `credits` held the way the backend keeps them. */
async function clients(howMany: number, credits: number): Promise<Caller[]> {
  const made = Array.from({ length: howMany }, (_, i) => ({
    uid: newDocumentId(),
    email: `client${i}@qupm.test`,
    isAdmin: false,
  }));
  const batch = db.batch();
  for (const client of made) {
    batch.set(db.doc(`users/${client.uid}`), {
      email: client.email,
      isOwner: false,
      credits,
      passCount: 0,
      effectiveConId: CONSULTANT,
      notificationSettings: { enabled: false, delivery: { channels: [] } },
    });
  }
  batch.update(db.doc(`channels/${CHANNEL}`), { members: FieldValue.arrayUnion(...made.map((c) => c.uid)) });
  await batch.commit();
  return made;
}

async function quarterHourService(): Promise<{ serviceId: string; slots: Slot[] }> {
  const service = await practiceCallables.create_service(deps, consultant, {
    title: 'Fifteen minutes',
    description: '',
    durationMinutes: 15,
    priceCredits: 1,
    operationId: newDocumentId(),
  });
  const { slots } = await practiceCallables.list_free_slots(deps, consultant, {
    serviceId: service.id,
    from: NOW,
    to: NOW + 14 * DAY,
  });
  return { serviceId: service.id, slots };
}

type Outcome = { ok: true; booking: Booking } | { ok: false; status: string; reason?: string };

async function attempt(
  caller: Caller,
  input: Parameters<typeof practiceCallables.request_booking>[2],
  on: Deps = deps,
): Promise<Outcome> {
  try {
    return { ok: true, booking: await practiceCallables.request_booking(on, caller, input) };
  } catch (error) {
    if (!(error instanceof QupmError)) throw error;
    return { ok: false, status: error.status, ...(error.reason ? { reason: error.reason } : {}) };
  }
}

async function ledgerOf(
  uid: string,
): Promise<Array<{ id: string; kind: string; credits: number; after: number }>> {
  const { docs } = await db.collection(`users/${uid}/ledger`).get();
  return docs.map((doc) => ({
    id: doc.id,
    kind: String(doc.get('kind')),
    credits: Number(doc.get('delta.credits')),
    after: Number(doc.get('balanceAfter.credits')),
  }));
}

describe('bookings on Firestore, in real transactions', () => {
  it('books exactly what a balance of 10 credits allows out of 200 at once, never below 0, the ledger equal to the balance', async () => {
    const { serviceId, slots } = await quarterHourService();
    expect(slots.length).toBeGreaterThanOrEqual(200);
    const [client] = await clients(1, 10);
    if (!client) throw new Error('no client');

    const outcomes = await Promise.all(
      slots.slice(0, 200).map((slot, i) =>
        attempt(
          client,
          {
            serviceId,
            startsAt: slot.startsAt,
            paymentMethod: 'credits',
            clientTimeZone: 'UTC',
            operationId: newDocumentId(),
          },
          instances[i % INSTANCES],
        ),
      ),
    );

    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    expect(outcomes.filter((o) => !o.ok).map((o) => (o.ok ? '' : `${o.status} ${o.reason}`))).toEqual(
      Array.from({ length: 190 }, () => 'FAILED_PRECONDITION insufficient-credits'),
    );
    const user = (await db.doc(`users/${client.uid}`).get()).data();
    expect({ credits: user?.credits, passCount: user?.passCount }).toEqual({ credits: 0, passCount: 0 });
    const ledger = await ledgerOf(client.uid);
    // The opening entry (the balance from before the ledger), then ten holds: 9, 8, … 0, never below.
    expect(ledger.filter((e) => e.kind === 'opening').map((e) => e.credits)).toEqual([10]);
    expect(
      ledger
        .filter((e) => e.kind === 'hold')
        .map((e) => e.after)
        .sort((a, b) => b - a),
    ).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(ledger.reduce((sum, e) => sum + e.credits, 0)).toBe(0);
    expect((await db.collection('bookings').where('clientId', '==', client.uid).get()).size).toBe(10);
    expect((await db.collection('slots').get()).size).toBe(10);
  });

  it('gives one free slot to exactly one of 50 clients racing for it', async () => {
    const { serviceId, slots } = await quarterHourService();
    const slot = slots[0];
    if (!slot) throw new Error('no free slot');
    const racers = await clients(50, 3);

    const outcomes = await Promise.all(
      racers.map((client, i) =>
        attempt(
          client,
          {
            serviceId,
            startsAt: slot.startsAt,
            paymentMethod: 'credits',
            clientTimeZone: 'UTC',
            operationId: newDocumentId(),
          },
          instances[i % INSTANCES],
        ),
      ),
    );

    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => (o.ok ? '' : o.reason))).toEqual(
      Array.from({ length: 49 }, () => 'slot-taken'),
    );
    expect((await db.collection('bookings').get()).size).toBe(1);
    const balances = await Promise.all(
      racers.map(async (c) => (await db.doc(`users/${c.uid}`).get()).get('credits') as number),
    );
    expect(balances.filter((credits) => credits !== 3)).toEqual([2]);
  });
});

describe('one booking on Firestore', () => {
  it('writes the booking, its slot, the hold with the balance, the card and the two mails in one transaction; a repeat writes nothing more', async () => {
    const { serviceId, slots } = await quarterHourService();
    const [client] = await clients(1, 2);
    if (!client) throw new Error('no client');
    const input = {
      serviceId,
      startsAt: slots[0]?.startsAt ?? 0,
      paymentMethod: 'credits' as const,
      clientTimeZone: 'America/New_York',
      operationId: newDocumentId(),
    };
    const booking = await practiceCallables.request_booking(deps, client, input);
    expect(await practiceCallables.request_booking(deps, client, input)).toEqual(booking);

    expect((await db.doc(`slots/${CONSULTANT}_${booking.startsAt}`).get()).get('bookingId')).toBe(booking.id);
    expect(await ledgerOf(client.uid)).toEqual(
      expect.arrayContaining([
        { id: 'opening', kind: 'opening', credits: 2, after: 2 },
        { id: input.operationId, kind: 'hold', credits: -1, after: 1 },
      ]),
    );
    expect((await db.collection(`users/${client.uid}/ledger`).get()).size).toBe(2);
    const cards = await db.collection(`channels/${booking.channelId}/messages`).get();
    expect(cards.docs.map((d) => [d.get('senderId'), d.get('text'), d.get('card.event')])).toEqual([
      [client.uid, 'Requested a session: “Fifteen minutes”', 'requested'],
    ]);
    const mails = await db.collection('mail').get();
    expect(
      mails.docs
        .map((d) => (d.get('message.attachments') as Array<{ contentType: string }>)[0]?.contentType)
        .sort(),
    ).toEqual([
      'text/calendar; method=REQUEST; charset=UTF-8',
      'text/calendar; method=REQUEST; charset=UTF-8',
    ]);

    const confirmed = await practiceCallables.confirm_booking(deps, consultant, {
      bookingId: booking.id,
      operationId: newDocumentId(),
    });
    expect(confirmed).toMatchObject({ state: 'confirmed', payment: { status: 'captured' }, sequence: 1 });
  });

  it('refuses a slot already taken, too few credits and a made-up price, holding nothing', async () => {
    const { serviceId, slots } = await quarterHourService();
    const [first, second] = await clients(2, 1);
    if (!first || !second) throw new Error('no clients');
    const startsAt = slots[0]?.startsAt ?? 0;
    await practiceCallables.request_booking(deps, first, {
      serviceId,
      startsAt,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      operationId: newDocumentId(),
    });
    const before = (await db.collection('bookings').get()).size;
    for (const [caller, change, reason] of [
      [second, { startsAt }, 'slot-taken'],
      [first, { startsAt: slots[1]?.startsAt ?? 0 }, 'insufficient-credits'],
      [second, { startsAt: slots[1]?.startsAt ?? 0, expectedCredits: 0 }, 'price-changed'],
    ] as const) {
      const outcome = await attempt(caller, {
        serviceId,
        paymentMethod: 'credits',
        clientTimeZone: 'UTC',
        operationId: newDocumentId(),
        ...change,
      });
      expect(outcome).toMatchObject({ ok: false, reason });
    }
    expect((await db.collection('bookings').get()).size).toBe(before);
    expect((await db.doc(`users/${second.uid}`).get()).get('credits')).toBe(1);
    expect((await db.collection(`users/${second.uid}/ledger`).get()).size).toBe(0);
  });
});
