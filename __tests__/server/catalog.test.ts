// A consultant's services and hours on the real server (server/services/catalog.ts) with the demo world, called
// through the running app's context (the routes come with the route table): who creates, edits and sees
// services, a repeat of a creation, weekly hours in a time zone, and the free times bookings leave.
import {
  createService,
  getAvailability,
  listFreeSlots,
  listServices,
  setAvailability,
  updateService,
} from '../../server/services/catalog';
import { requestBooking } from '../../server/services/bookings';
import type { Service } from '../../core/model';
import { withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { callerOf, contextOf, count, opId } from './support/practice';
import { demoStreams } from './support/sse';
import { refusal } from '../support/refusal';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));
const live = demoStreams(() => ({ server, ids }));

const as = (role: 'consultant' | 'member' | 'visitor' | 'admin') => callerOf(ids, role);
const ctx = () => contextOf(server);

const review = {
  title: 'Pricing review',
  description: 'Forty-five minutes on one price.',
  durationMinutes: 45,
  priceCredits: 2,
};

describe('createService', () => {
  it('stores a consultant’s new service, and a repeat of its operation makes no second one', () => {
    const operationId = opId();
    const made = createService(ctx(), as('consultant'), { ...review, operationId });
    expect(made).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      consultantId: ids.uid.consultant,
      ...review,
      status: 'active',
      createdAt: server.clock.now(),
      updatedAt: server.clock.now(),
    });
    expect(createService(ctx(), as('consultant'), { ...review, operationId })).toEqual(made);
    expect(count(server, 'SELECT COUNT(*) AS n FROM services WHERE title = ?', review.title)).toBe(1);
  });

  it('refuses the same operation id for a different service, changing nothing', () => {
    const operationId = opId();
    createService(ctx(), as('consultant'), { ...review, operationId });
    expect(
      refusal(() => createService(ctx(), as('consultant'), { ...review, title: 'Other', operationId })),
    ).toMatchObject({
      status: 'ALREADY_EXISTS',
      reason: 'operation-reused',
    });
    expect(count(server, `SELECT COUNT(*) AS n FROM services WHERE title = 'Other'`)).toBe(0);
  });

  it('refuses a client, and a second active service of the same title', () => {
    expect(refusal(() => createService(ctx(), as('member'), { ...review, operationId: opId() })).status).toBe(
      'PERMISSION_DENIED',
    );
    expect(
      refusal(() =>
        createService(ctx(), as('consultant'), { ...review, title: 'strategy session', operationId: opId() }),
      ).status,
    ).toBe('FAILED_PRECONDITION');
  });

  it('tells the consultant and their clients, live, that the services changed, and nobody else', async () => {
    const member = await live.open('member');
    const visitor = await live.open('visitor');
    createService(ctx(), as('consultant'), { ...review, operationId: opId() });
    expect((await member.next('services')).data).toEqual({ consultantId: ids.uid.consultant });
    // The visitor is nobody's client: a later event of theirs comes, and no 'services' came before it.
    await live.marker('visitor');
    expect((await visitor.before('user')).map((e) => e.event)).not.toContain('services');
  });
});

describe('listServices and updateService', () => {
  it('shows clients the active services, the consultant all of them, and refuses a stranger', () => {
    const strategy = listServices(ctx(), as('member'), ids.uid.consultant).find(
      (s) => s.title === 'Strategy session',
    ) as Service;
    updateService(ctx(), as('consultant'), strategy.id, { status: 'archived' });
    expect(listServices(ctx(), as('member'), ids.uid.consultant).map((s) => s.title)).toEqual([
      'Quick check-in',
    ]);
    expect(listServices(ctx(), as('consultant'), ids.uid.consultant).map((s) => [s.title, s.status])).toEqual(
      [
        ['Quick check-in', 'active'],
        ['Strategy session', 'archived'],
      ],
    );
    expect(listServices(ctx(), as('admin'), ids.uid.consultant)).toHaveLength(2);
    expect(refusal(() => listServices(ctx(), as('visitor'), ids.uid.consultant))).toMatchObject({
      status: 'PERMISSION_DENIED',
      reason: 'not-your-consultant',
    });
  });

  it('lets only the consultant change a service; a booking keeps the title and price it was made with', () => {
    const [checkIn] = listServices(ctx(), as('member'), ids.uid.consultant);
    if (!checkIn) throw new Error('the demo has services');
    const { slots } = listFreeSlots(ctx(), as('member'), {
      serviceId: checkIn.id,
      from: server.clock.now(),
      to: server.clock.now() + 7 * DAY,
    });
    const booking = requestBooking(ctx(), as('member'), {
      serviceId: checkIn.id,
      startsAt: slots[0]?.startsAt ?? 0,
      paymentMethod: 'credits',
      clientTimeZone: 'Europe/Paris',
      operationId: opId(),
    });
    expect(refusal(() => updateService(ctx(), as('member'), checkIn.id, { priceCredits: 0 })).status).toBe(
      'PERMISSION_DENIED',
    );
    const changed = updateService(ctx(), as('consultant'), checkIn.id, {
      title: 'Check-in',
      priceCredits: 2,
    });
    expect(changed).toMatchObject({ title: 'Check-in', priceCredits: 2, updatedAt: server.clock.now() });
    expect(
      server.query('SELECT service_title, payment_amount FROM bookings WHERE id = ?', booking.id),
    ).toEqual([{ service_title: 'Quick check-in', payment_amount: 1 }]);
  });
});

describe('availability and free slots', () => {
  it('keeps the consultant’s hours normalized in their zone, and refuses overlapping ones', () => {
    const set = setAvailability(ctx(), as('consultant'), {
      timeZone: 'America/New_York',
      hours: [
        { day: 2, start: '13:00', end: '15:00' },
        { day: 2, start: '09:00', end: '13:00' },
      ],
    });
    expect(set).toEqual({
      consultantId: ids.uid.consultant,
      timeZone: 'America/New_York',
      hours: [{ day: 2, start: '09:00', end: '15:00' }],
      updatedAt: server.clock.now(),
    });
    expect(getAvailability(ctx(), as('member'), ids.uid.consultant)).toEqual(set);
    expect(
      refusal(() =>
        setAvailability(ctx(), as('consultant'), {
          timeZone: 'UTC',
          hours: [
            { day: 1, start: '09:00', end: '12:00' },
            { day: 1, start: '11:00', end: '12:00' },
          ],
        }),
      ).status,
    ).toBe('INVALID_ARGUMENT');
    expect(getAvailability(ctx(), as('member'), ids.uid.consultant)?.timeZone).toBe('America/New_York');
    expect(refusal(() => setAvailability(ctx(), as('member'), { timeZone: 'UTC', hours: [] })).status).toBe(
      'PERMISSION_DENIED',
    );
  });

  it('offers the hours minus what bookings hold, and says when there are no hours', () => {
    const [checkIn] = listServices(ctx(), as('member'), ids.uid.consultant);
    if (!checkIn) throw new Error('the demo has services');
    const window = { serviceId: checkIn.id, from: server.clock.now(), to: server.clock.now() + 2 * DAY };
    const before = listFreeSlots(ctx(), as('member'), window);
    expect(before.timeZone).toBe('Europe/London');
    const taken = before.slots[3];
    if (!taken) throw new Error('expected free slots');
    requestBooking(ctx(), as('member'), {
      serviceId: checkIn.id,
      startsAt: taken.startsAt,
      paymentMethod: 'pass',
      clientTimeZone: 'UTC',
      operationId: opId(),
    });
    const after = listFreeSlots(ctx(), as('member'), window).slots.map((s) => s.startsAt);
    // A 30-minute booking takes its own start and every start whose half hour would touch it.
    expect(after).not.toContain(taken.startsAt);
    expect(after).not.toContain(taken.startsAt - 15 * 60_000);
    expect(after).not.toContain(taken.startsAt + 15 * 60_000);
    expect(after).toContain(taken.startsAt + 30 * 60_000);
    expect(after).toHaveLength(before.slots.length - 3);

    setAvailability(ctx(), as('consultant'), { timeZone: 'Europe/London', hours: [] });
    expect(listFreeSlots(ctx(), as('member'), window)).toEqual({
      slots: [],
      timeZone: 'Europe/London',
      noHours: 'This consultant has not set their hours yet, so nothing can be booked.',
    });
  });

  it('refuses the free times of a service to someone who is not the consultant’s client', () => {
    const [checkIn] = listServices(ctx(), as('consultant'), ids.uid.consultant);
    expect(
      refusal(() => listFreeSlots(ctx(), as('visitor'), { serviceId: checkIn?.id ?? '', from: 1, to: 2 }))
        .status,
    ).toBe('PERMISSION_DENIED');
    expect(
      refusal(() => listFreeSlots(ctx(), as('member'), { serviceId: 'NoSuchService0000000', from: 1, to: 2 }))
        .status,
    ).toBe('NOT_FOUND');
  });
});
