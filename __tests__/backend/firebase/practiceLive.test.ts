// The Firebase adapter's live practice on the contract suite's Firebase (support/firebaseSdk.ts: the client SDK's
// live queries over one in-memory Firestore, functions/' real practice callables behind them): a booking's client
// and consultant hear each step as the booking, a consultant hears their own services and hours change, and a
// person hears a channel that is gone for them (deleted, or they were taken out of it).
import type { Backend } from '@/backend/ports';
import { newDocumentId } from '@core/ids';
import type { Booking } from '@core/model';
import { createFirebaseHarness } from '../../contract/support/firebaseHarness';
import type { Harness } from '../../contract/support/harness';
import { CHANNELS, PEOPLE, START } from '../../contract/support/world';
import type * as Sdk from '../../contract/support/firebaseSdk';
import { listenersCaughtUp } from '../../contract/support/firebaseSdk';
import { eventually as passes } from '../../support/eventually';

jest.mock(
  'firebase/app',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().app,
);
jest.mock(
  'firebase/auth',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().auth,
);
jest.mock(
  'firebase/firestore',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().firestore,
);
jest.mock(
  'firebase/functions',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().functions,
);
jest.mock(
  'firebase/messaging',
  () => jest.requireActual<typeof Sdk>('../../contract/support/firebaseSdk').firebaseModules().messaging,
);

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SLOT = Math.floor((START + 2 * DAY) / DAY) * DAY + 10 * HOUR;
const op = () => ({ operationId: newDocumentId() });

let h: Harness;
beforeEach(async () => {
  h = await createFirebaseHarness();
});
afterEach(() => h.close());

const eventually = (check: () => void) => passes(check, { timeoutMs: 3000, everyMs: 10 });
/**
 * Lets the live queries deliver what they would (nothing, when nothing is due): a moment for the lazily loaded
 * listeners to start, then until each has had the server's answer (on a loaded machine a moment is not enough, and
 * a change made before a listener's first answer is no change to it).
 */
const quiet = async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
  await listenersCaughtUp();
};

async function practice(consultant: Backend) {
  await consultant.services.setHours({
    timeZone: 'UTC',
    hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: '08:00', end: '18:00' })),
  });
  return consultant.services.createService({
    title: 'Strategy session',
    description: '',
    durationMinutes: 60,
    priceCredits: 2,
    ...op(),
  });
}

describe('bookings.subscribeBookings (Firebase)', () => {
  it('hands each step on to the client and the consultant as the booking is now, nothing before', async () => {
    const consultant = await h.as('consultant');
    const member = await h.as('member');
    const service = await practice(consultant);
    const heardByClient: Array<Booking | null> = [];
    const heardByConsultant: Array<Booking | null> = [];
    const stops = [
      member.bookings.subscribeBookings((booking) => heardByClient.push(booking)),
      consultant.bookings.subscribeBookings((booking) => heardByConsultant.push(booking)),
    ];
    await quiet();
    expect(heardByClient).toEqual([]);

    const requested = await member.bookings.requestBooking({
      serviceId: service.id,
      startsAt: SLOT,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      ...op(),
    });
    await eventually(() => expect(heardByConsultant).toContainEqual(requested));
    await eventually(() => expect(heardByClient).toContainEqual(requested));
    const confirmed = await consultant.bookings.confirmBooking(requested.id, op());
    await eventually(() => expect(heardByClient).toContainEqual(confirmed));
    await eventually(() => expect(heardByConsultant).toContainEqual(confirmed));

    stops.forEach((stop) => stop());
    const heard = heardByClient.length;
    await consultant.bookings.completeBooking(requested.id, op()).catch(() => undefined);
    await member.bookings.cancelBooking(requested.id, op());
    await quiet();
    expect(heardByClient).toHaveLength(heard);
  });

  it('tells a third person nothing of the two', async () => {
    const consultant = await h.as('consultant');
    const member = await h.as('member');
    const service = await practice(consultant);
    const heard: Array<Booking | null> = [];
    (await h.as('visitor')).bookings.subscribeBookings((booking) => heard.push(booking));
    await member.bookings.requestBooking({
      serviceId: service.id,
      startsAt: SLOT,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      ...op(),
    });
    await quiet();
    expect(heard).toEqual([]);
  });
});

describe('services.subscribeServices (Firebase)', () => {
  it('tells a consultant their own services and hours changed, after the first read', async () => {
    const consultant = await h.as('consultant');
    const heard = jest.fn();
    consultant.services.subscribeServices(PEOPLE.consultant.uid, heard);
    await quiet();
    expect(heard).not.toHaveBeenCalled();
    const service = await practice(consultant);
    await eventually(() => expect(heard).toHaveBeenCalled());
    heard.mockClear();
    await consultant.services.updateService(service.id, { status: 'archived' });
    await eventually(() => expect(heard).toHaveBeenCalled());
  });
});

describe('housekeeping.subscribeChannelRemoved (Firebase)', () => {
  it('says nothing of an archived channel, and names one its member was taken out of', async () => {
    const consultant = await h.as('consultant');
    const member = await h.as('member');
    const gone: string[] = [];
    member.housekeeping.subscribeChannelRemoved((id) => gone.push(id));
    await quiet();
    await consultant.housekeeping.archiveChannel(CHANNELS.studio.id);
    await quiet();
    expect(gone).toEqual([]);
    await consultant.housekeeping.removeMember(CHANNELS.studio.id, PEOPLE.member.uid);
    await eventually(() => expect(gone).toEqual([CHANNELS.studio.id]));
  });

  it('names a deleted channel to its owner, and keeps the others', async () => {
    const consultant = await h.as('consultant');
    const gone: string[] = [];
    consultant.housekeeping.subscribeChannelRemoved((id) => gone.push(id));
    await quiet();
    await consultant.housekeeping.deleteChannel(CHANNELS.clinic.id);
    await eventually(() => expect(gone).toEqual([CHANNELS.clinic.id]));
    await quiet();
    expect(gone).toEqual([CHANNELS.clinic.id]);
  });

  it('says nothing to a member handed the channel, and names it to the consultant who handed it over', async () => {
    const admin = await h.as('admin');
    await admin.admin.setConsultant(PEOPLE.member.uid, true);
    await h.settle();
    const consultant = await h.as('consultant');
    const member = await h.as('member');
    const goneForMember: string[] = [];
    const goneForConsultant: string[] = [];
    member.housekeeping.subscribeChannelRemoved((id) => goneForMember.push(id));
    consultant.housekeeping.subscribeChannelRemoved((id) => goneForConsultant.push(id));
    await quiet();
    const handed = await consultant.housekeeping.handOverChannel(CHANNELS.studio.id, PEOPLE.member.uid);
    expect(handed.ownerId).toBe(PEOPLE.member.uid);
    await eventually(() => expect(goneForConsultant).toEqual([CHANNELS.studio.id]));
    await quiet();
    expect(goneForMember).toEqual([]);
  });
});
