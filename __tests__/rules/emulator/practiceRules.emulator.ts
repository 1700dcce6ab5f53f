// firestore.rules for the consulting practice, on the Firestore emulator: no client ever writes the
// ledger, a balance, a booking or its state, a service or hours, a calendar slot or an operation record; each
// reads only what is theirs; and an archived channel takes no new message. Run with npm run test:rules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import {
  Timestamp,
  addDoc,
  collection,
  deleteDoc,
  doc,
  getDoc,
  getDocs,
  query,
  serverTimestamp,
  setDoc,
  updateDoc,
  where,
} from 'firebase/firestore';

const CONSULTANT = 'ConsultantUid0000001';
const CLIENT = 'ClientUid00000000001';
const STRANGER = 'StrangerUid000000001';
const ADMIN = 'AdminUid000000000001';
const CHANNEL = 'ChannelStudio0000001';
const BOOKING = 'BookingId00000000001';
const SERVICE = 'ServiceId00000000001';

let env: RulesTestEnvironment;

beforeAll(async () => {
  env = await initializeTestEnvironment({
    projectId: 'demo-qupm-practice-rules',
    firestore: { rules: readFileSync(path.resolve(__dirname, '../../../firestore.rules'), 'utf8') },
  });
});

afterAll(() => env.cleanup());

beforeEach(async () => {
  await env.clearFirestore();
  await env.withSecurityRulesDisabled(async (context) => {
    const db = context.firestore();
    const user = (uid: string, extra: object = {}) =>
      setDoc(doc(db, 'users', uid), {
        email: `${uid.toLowerCase()}@qupm.test`,
        isOwner: false,
        credits: 0,
        passCount: 0,
        effectiveConId: '',
        notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
        ...extra,
      });
    await user(CONSULTANT, { isOwner: true, effectiveConId: CONSULTANT });
    await user(CLIENT, { credits: 3, passCount: 1, ledgerOpened: true, effectiveConId: CONSULTANT });
    await user(STRANGER);
    await user(ADMIN);
    await setDoc(doc(db, 'channels', CHANNEL), {
      channelId: 'strategy-studio',
      ownerId: CONSULTANT,
      title: 'Strategy Studio',
      description: '',
      members: [CLIENT],
      createdAt: serverTimestamp(),
    });
    await setDoc(doc(db, 'services', SERVICE), {
      consultantId: CONSULTANT,
      title: 'Strategy session',
      description: '',
      durationMinutes: 60,
      priceCredits: 3,
      status: 'active',
    });
    await setDoc(doc(db, 'availability', CONSULTANT), { timeZone: 'Europe/London', hours: [] });
    await setDoc(doc(db, 'bookings', BOOKING), {
      consultantId: CONSULTANT,
      clientId: CLIENT,
      serviceId: SERVICE,
      state: 'requested',
      payment: { method: 'credits', amount: 3, listPrice: 3, status: 'held' },
      startsAt: Timestamp.fromMillis(Date.UTC(2030, 0, 1, 9)),
    });
    await setDoc(doc(db, 'users', CLIENT, 'ledger', 'OperationId000000001'), {
      kind: 'hold',
      delta: { credits: -3, passes: 0 },
      amount: { credits: 3, passes: 0 },
      balanceAfter: { credits: 0, passes: 1 },
    });
    await setDoc(doc(db, 'slots', `${CONSULTANT}_1893488400000`), {
      consultantId: CONSULTANT,
      cell: 1893488400000,
      bookingId: BOOKING,
    });
    await setDoc(doc(db, 'operations', 'OperationId000000001'), { uid: CLIENT, kind: 'request-booking' });
  });
});

const dbOf = (uid: string) =>
  env.authenticatedContext(uid, uid === ADMIN ? { isAdmin: true } : {}).firestore();

describe('users/{uid}/ledger', () => {
  it('is read by its person and admins, and listed by its person only', async () => {
    await assertSucceeds(getDoc(doc(dbOf(CLIENT), 'users', CLIENT, 'ledger', 'OperationId000000001')));
    await assertSucceeds(getDocs(collection(dbOf(CLIENT), 'users', CLIENT, 'ledger')));
    await assertSucceeds(getDoc(doc(dbOf(ADMIN), 'users', CLIENT, 'ledger', 'OperationId000000001')));
    await assertFails(getDoc(doc(dbOf(CONSULTANT), 'users', CLIENT, 'ledger', 'OperationId000000001')));
    await assertFails(getDocs(collection(dbOf(STRANGER), 'users', CLIENT, 'ledger')));
  });

  it('is never written by a client, not even its own person or an admin', async () => {
    const entry = { kind: 'grant', delta: { credits: 100, passes: 0 }, amount: { credits: 100, passes: 0 } };
    await assertFails(setDoc(doc(dbOf(CLIENT), 'users', CLIENT, 'ledger', 'Forged00000000000001'), entry));
    await assertFails(addDoc(collection(dbOf(CLIENT), 'users', CLIENT, 'ledger'), entry));
    await assertFails(
      updateDoc(doc(dbOf(CLIENT), 'users', CLIENT, 'ledger', 'OperationId000000001'), {
        delta: { credits: 0, passes: 0 },
      }),
    );
    await assertFails(deleteDoc(doc(dbOf(CLIENT), 'users', CLIENT, 'ledger', 'OperationId000000001')));
    await assertFails(setDoc(doc(dbOf(ADMIN), 'users', CLIENT, 'ledger', 'Forged00000000000002'), entry));
  });

  it('keeps the balance and the ledger flag out of a person’s own profile writes', async () => {
    await assertFails(updateDoc(doc(dbOf(CLIENT), 'users', CLIENT), { credits: 99 }));
    await assertFails(updateDoc(doc(dbOf(CLIENT), 'users', CLIENT), { passCount: 9 }));
    await assertFails(updateDoc(doc(dbOf(CLIENT), 'users', CLIENT), { ledgerOpened: false }));
    await assertSucceeds(updateDoc(doc(dbOf(CLIENT), 'users', CLIENT), { nickname: 'Mo' }));
  });
});

describe('bookings', () => {
  it('are read by their client, their consultant and admins', async () => {
    await assertSucceeds(getDoc(doc(dbOf(CLIENT), 'bookings', BOOKING)));
    await assertSucceeds(getDoc(doc(dbOf(CONSULTANT), 'bookings', BOOKING)));
    await assertSucceeds(getDoc(doc(dbOf(ADMIN), 'bookings', BOOKING)));
    await assertFails(getDoc(doc(dbOf(STRANGER), 'bookings', BOOKING)));
    await assertSucceeds(
      getDocs(query(collection(dbOf(CLIENT), 'bookings'), where('clientId', '==', CLIENT))),
    );
    await assertSucceeds(
      getDocs(query(collection(dbOf(CONSULTANT), 'bookings'), where('consultantId', '==', CONSULTANT))),
    );
    await assertFails(getDocs(collection(dbOf(STRANGER), 'bookings')));
  });

  it('are never created or changed by a client: not their state, not their payment', async () => {
    await assertFails(updateDoc(doc(dbOf(CONSULTANT), 'bookings', BOOKING), { state: 'confirmed' }));
    await assertFails(updateDoc(doc(dbOf(CLIENT), 'bookings', BOOKING), { state: 'cancelled' }));
    await assertFails(updateDoc(doc(dbOf(CLIENT), 'bookings', BOOKING), { 'payment.amount': 0 }));
    await assertFails(
      setDoc(doc(dbOf(CLIENT), 'bookings', 'BookingForged0000001'), {
        clientId: CLIENT,
        consultantId: CONSULTANT,
        state: 'confirmed',
      }),
    );
    await assertFails(deleteDoc(doc(dbOf(CONSULTANT), 'bookings', BOOKING)));
  });
});

describe('services and hours', () => {
  it('are read directly by their consultant and admins; clients read them through the callables', async () => {
    await assertSucceeds(getDoc(doc(dbOf(CONSULTANT), 'services', SERVICE)));
    await assertSucceeds(
      getDocs(query(collection(dbOf(CONSULTANT), 'services'), where('consultantId', '==', CONSULTANT))),
    );
    await assertSucceeds(getDoc(doc(dbOf(ADMIN), 'services', SERVICE)));
    await assertFails(getDoc(doc(dbOf(CLIENT), 'services', SERVICE)));
    await assertSucceeds(getDoc(doc(dbOf(CONSULTANT), 'availability', CONSULTANT)));
    await assertFails(getDoc(doc(dbOf(CLIENT), 'availability', CONSULTANT)));
  });

  it('are never written by a client, their consultant included', async () => {
    await assertFails(updateDoc(doc(dbOf(CONSULTANT), 'services', SERVICE), { priceCredits: 0 }));
    await assertFails(
      setDoc(doc(dbOf(CONSULTANT), 'services', 'ServiceNew0000000001'), {
        consultantId: CONSULTANT,
        title: 'x',
        status: 'active',
      }),
    );
    await assertFails(updateDoc(doc(dbOf(CLIENT), 'services', SERVICE), { priceCredits: 0 }));
    await assertFails(
      setDoc(doc(dbOf(CONSULTANT), 'availability', CONSULTANT), { timeZone: 'UTC', hours: [] }),
    );
  });
});

describe('the calendar’s slots and the operation records', () => {
  it('have no client access at all', async () => {
    await assertFails(getDoc(doc(dbOf(CONSULTANT), 'slots', `${CONSULTANT}_1893488400000`)));
    await assertFails(deleteDoc(doc(dbOf(CONSULTANT), 'slots', `${CONSULTANT}_1893488400000`)));
    await assertFails(
      setDoc(doc(dbOf(CLIENT), 'slots', `${CONSULTANT}_1893492000000`), {
        consultantId: CONSULTANT,
        bookingId: 'x',
      }),
    );
    await assertFails(getDoc(doc(dbOf(CLIENT), 'operations', 'OperationId000000001')));
    await assertFails(setDoc(doc(dbOf(CLIENT), 'operations', 'OperationId000000002'), { uid: CLIENT }));
  });
});

describe('an archived channel', () => {
  const message = (uid: string) => ({ senderId: uid, text: 'Hello', createdAt: serverTimestamp() });

  it('takes no new message, from its owner or its members, until it is reopened', async () => {
    await assertSucceeds(
      setDoc(doc(dbOf(CLIENT), 'channels', CHANNEL, 'messages', 'MessageOpen000000001'), message(CLIENT)),
    );
    await env.withSecurityRulesDisabled((context) =>
      updateDoc(doc(context.firestore(), 'channels', CHANNEL), { archivedAt: Date.UTC(2026, 0, 1) }),
    );
    await assertFails(
      setDoc(doc(dbOf(CLIENT), 'channels', CHANNEL, 'messages', 'MessageArchived00001'), message(CLIENT)),
    );
    await assertFails(
      setDoc(
        doc(dbOf(CONSULTANT), 'channels', CHANNEL, 'messages', 'MessageArchived00002'),
        message(CONSULTANT),
      ),
    );
    // Its messages can still be read.
    await assertSucceeds(getDoc(doc(dbOf(CLIENT), 'channels', CHANNEL, 'messages', 'MessageOpen000000001')));
  });

  it('never lets a client post a card', async () => {
    await assertFails(
      setDoc(doc(dbOf(CLIENT), 'channels', CHANNEL, 'messages', 'MessageCard000000001'), {
        ...message(CLIENT),
        card: { kind: 'booking', bookingId: BOOKING, event: 'confirmed' },
      }),
    );
  });
});
