// A booking's names on the real Firestore emulator: functions/ keeps the client's and the consultant's names on
// bookings/{id}; no client can write them (firestore.rules: bookings are functions' alone), and on_user_renamed
// carries a new name into every booking of that person, which its two people then read through the rules.
import { Timestamp } from 'firebase-admin/firestore';
import { doc, getDoc, updateDoc } from 'firebase/firestore';
import { functionsTest } from '../support/functionsTest';
import type { Client, EmulatorBackend } from './support/emulators';
import { clearEmulators, emulatorBackend, loadFirestoreRules, outcome, signedIn } from './support/emulators';

const PASSWORD = 'names-password-1';
const BOOKING = 'BookingNames00000001';
const OTHERS = 'BookingNames00000002';

let backend: EmulatorBackend;
let client: Client;
let consultant: Client;
let uid: { client: string; consultant: string };

beforeAll(async () => {
  backend = emulatorBackend();
  await loadFirestoreRules();
});

// Each test signs the two people in afresh: each pair is closed after its test, or Jest never exits.
afterEach(async () => {
  await Promise.all([client?.close(), consultant?.close()]);
});

afterAll(async () => {
  await backend.close();
});

beforeEach(async () => {
  await clearEmulators();
  const { db, auth } = backend.admin;
  const [clientAccount, consultantAccount] = await Promise.all([
    auth.createUser({ email: 'morgan@qupm.test', password: PASSWORD }),
    auth.createUser({ email: 'dana@qupm.test', password: PASSWORD }),
  ]);
  uid = { client: clientAccount.uid, consultant: consultantAccount.uid };
  const booking = (clientId: string, clientName: string) => ({
    consultantId: uid.consultant,
    clientId,
    clientName,
    consultantName: 'Dana',
    serviceTitle: 'Strategy session',
    startsAt: Timestamp.fromMillis(Date.now() + 86_400_000),
    state: 'requested',
  });
  await Promise.all([
    db.doc(`users/${uid.client}`).set({ email: 'morgan@qupm.test', nickname: 'Morgan' }),
    db.doc(`users/${uid.consultant}`).set({ email: 'dana@qupm.test', nickname: 'Dana', isOwner: true }),
    db.doc(`bookings/${BOOKING}`).set(booking(uid.client, 'Morgan')),
    db.doc(`bookings/${OTHERS}`).set(booking('SomeoneElse000000001', 'Sam')),
  ]);
  [client, consultant] = await Promise.all([
    signedIn('morgan@qupm.test', PASSWORD),
    signedIn('dana@qupm.test', PASSWORD),
  ]);
});

const renamed = (who: string, before: Record<string, unknown>, after: Record<string, unknown>) =>
  functionsTest.wrap(backend.fns.on_user_renamed)({
    data: { before, after },
    params: { uid: who },
  } as never);

describe('a booking’s names', () => {
  it('are written by functions/ alone: neither of its two people can set one', async () => {
    expect(await outcome(updateDoc(doc(client.db, `bookings/${BOOKING}`), { clientName: 'Someone' }))).toBe(
      'permission-denied',
    );
    expect(
      await outcome(updateDoc(doc(consultant.db, `bookings/${BOOKING}`), { clientName: 'Someone' })),
    ).toBe('permission-denied');
    expect((await backend.admin.db.doc(`bookings/${BOOKING}`).get()).get('clientName')).toBe('Morgan');
  });

  it('follow a rename: the consultant reads the client’s new name, and no one else’s booking changes', async () => {
    await backend.admin.db.doc(`users/${uid.client}`).update({ nickname: 'Morgana' });
    await renamed(
      uid.client,
      { email: 'morgan@qupm.test', nickname: 'Morgan' },
      { email: 'morgan@qupm.test', nickname: 'Morgana' },
    );
    const read = await getDoc(doc(consultant.db, `bookings/${BOOKING}`));
    expect(read.data()).toMatchObject({ clientName: 'Morgana', consultantName: 'Dana' });
    expect((await backend.admin.db.doc(`bookings/${OTHERS}`).get()).get('clientName')).toBe('Sam');

    // As Firestore fires it: after the write (the trigger carries the name the document holds when it runs).
    await backend.admin.db.doc(`users/${uid.consultant}`).update({ nickname: 'Dana W.' });
    await renamed(
      uid.consultant,
      { email: 'dana@qupm.test', nickname: 'Dana' },
      { email: 'dana@qupm.test', nickname: 'Dana W.' },
    );
    expect((await getDoc(doc(client.db, `bookings/${BOOKING}`))).data()).toMatchObject({
      clientName: 'Morgana',
      consultantName: 'Dana W.',
    });
    expect((await backend.admin.db.doc(`bookings/${OTHERS}`).get()).get('consultantName')).toBe('Dana W.');
  });
});
