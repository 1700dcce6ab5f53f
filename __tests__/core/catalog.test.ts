// A consultant's services (core/catalog.ts): who creates and changes them, their limits, who sees which.
import {
  assertBookableService,
  isServiceDuration,
  isServicePrice,
  planNewService,
  planServicePatch,
  servicesSeenBy,
  SERVICE_LIMITS,
} from '@core/catalog';
import { QupmError } from '@core/errors';
import type { Service } from '@core/model';
import { serviceCreateBody, servicePatchBody } from '@core/schemas';

const NOW = 1_800_000_000_000;
const service = (over: Partial<Service> = {}): Service => ({
  id: 'S1',
  consultantId: 'dana',
  title: 'Strategy session',
  description: '',
  durationMinutes: 60,
  priceCredits: 3,
  status: 'active',
  createdAt: NOW - 1000,
  updatedAt: NOW - 1000,
  ...over,
});
const create = { title: 'Pricing review', description: 'One hour', durationMinutes: 45, priceCredits: 2 };

function statusOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof QupmError) return `${error.status}${error.reason ? ` ${error.reason}` : ''}`;
    throw error;
  }
  return 'ok';
}

describe('isServiceDuration and isServicePrice', () => {
  it.each([15, 30, 45, 60, 480])('takes %i minutes', (minutes) =>
    expect(isServiceDuration(minutes)).toBe(true),
  );
  it.each([0, 10, 20, 495, 60.5, '60', NaN])('refuses %p minutes', (minutes) =>
    expect(isServiceDuration(minutes)).toBe(false),
  );
  it.each([0, 1, 1000])('takes a price of %i credits', (price) => expect(isServicePrice(price)).toBe(true));
  it.each([-1, 1001, 2.5, '3'])('refuses a price of %p', (price) =>
    expect(isServicePrice(price)).toBe(false),
  );
});

describe('planNewService', () => {
  it('makes an active service of the consultant, stamped now', () => {
    expect(
      planNewService({
        id: 'S2',
        consultant: { uid: 'dana', isOwner: true },
        existing: [],
        service: create,
        now: NOW,
      }),
    ).toEqual({
      id: 'S2',
      consultantId: 'dana',
      ...create,
      status: 'active',
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('refuses someone who is not a consultant', () => {
    expect(
      statusOf(() =>
        planNewService({
          id: 'S2',
          consultant: { uid: 'morgan', isOwner: false },
          existing: [],
          service: create,
          now: NOW,
        }),
      ),
    ).toBe('PERMISSION_DENIED');
    expect(
      statusOf(() => planNewService({ id: 'S2', consultant: null, existing: [], service: create, now: NOW })),
    ).toBe('PERMISSION_DENIED');
  });

  it('refuses a second active service of the same title (in any case), but not of an archived one', () => {
    const args = { id: 'S2', consultant: { uid: 'dana', isOwner: true }, now: NOW };
    expect(
      statusOf(() =>
        planNewService({
          ...args,
          existing: [service()],
          service: { ...create, title: ' strategy SESSION ' },
        }),
      ),
    ).toBe('FAILED_PRECONDITION');
    expect(
      statusOf(() =>
        planNewService({
          ...args,
          existing: [service({ status: 'archived' })],
          service: { ...create, title: 'Strategy session' },
        }),
      ),
    ).toBe('ok');
  });

  it(`refuses a ${SERVICE_LIMITS.activeMax + 1}st active service`, () => {
    const many = Array.from({ length: SERVICE_LIMITS.activeMax }, (_, i) =>
      service({ id: `S${i}`, title: `T${i}` }),
    );
    expect(
      statusOf(() =>
        planNewService({
          id: 'X',
          consultant: { uid: 'dana', isOwner: true },
          existing: many,
          service: create,
          now: NOW,
        }),
      ),
    ).toBe('FAILED_PRECONDITION');
  });
});

describe('planServicePatch', () => {
  it('changes what the patch names, and archives and restores', () => {
    const archived = planServicePatch({
      service: service(),
      callerUid: 'dana',
      existing: [service()],
      patch: { status: 'archived', priceCredits: 5 },
      now: NOW,
    });
    expect(archived).toEqual({ ...service(), status: 'archived', priceCredits: 5, updatedAt: NOW });
    const restored = planServicePatch({
      service: archived,
      callerUid: 'dana',
      existing: [archived],
      patch: { status: 'active' },
      now: NOW + 1,
    });
    expect(restored.status).toBe('active');
  });

  it('refuses another consultant, a missing service, and restoring one whose title is taken again', () => {
    expect(
      statusOf(() =>
        planServicePatch({
          service: service(),
          callerUid: 'other',
          existing: [],
          patch: { title: 'x' },
          now: NOW,
        }),
      ),
    ).toBe('PERMISSION_DENIED');
    expect(
      statusOf(() =>
        planServicePatch({ service: null, callerUid: 'dana', existing: [], patch: { title: 'x' }, now: NOW }),
      ),
    ).toBe('NOT_FOUND');
    const archived = service({ status: 'archived' });
    const again = service({ id: 'S2' });
    expect(
      statusOf(() =>
        planServicePatch({
          service: archived,
          callerUid: 'dana',
          existing: [archived, again],
          patch: { status: 'active' },
          now: NOW,
        }),
      ),
    ).toBe('FAILED_PRECONDITION');
  });
});

describe('assertBookableService', () => {
  it('lets an active service be booked, and refuses an archived or missing one', () => {
    expect(statusOf(() => assertBookableService(service()))).toBe('ok');
    expect(statusOf(() => assertBookableService(service({ status: 'archived' })))).toBe(
      'FAILED_PRECONDITION service-archived',
    );
    expect(statusOf(() => assertBookableService(null))).toBe('NOT_FOUND');
  });
});

describe('servicesSeenBy', () => {
  const list = [
    service({ id: 'B', title: 'Review' }),
    service({ id: 'A', title: 'Audit', status: 'archived' }),
    service({ id: 'C', title: 'Coaching' }),
    service({ id: 'D', consultantId: 'other', title: 'Elsewhere' }),
  ];

  it('shows a client the active services of that consultant, by title', () => {
    expect(servicesSeenBy(list, 'dana', { uid: 'morgan', isAdmin: false }).map((s) => s.id)).toEqual([
      'C',
      'B',
    ]);
  });

  it('shows the consultant and an admin every one of theirs, archived last', () => {
    expect(servicesSeenBy(list, 'dana', { uid: 'dana', isAdmin: false }).map((s) => s.id)).toEqual([
      'C',
      'B',
      'A',
    ]);
    expect(servicesSeenBy(list, 'dana', { uid: 'root', isAdmin: true }).map((s) => s.id)).toEqual([
      'C',
      'B',
      'A',
    ]);
  });
});

describe('the service schemas', () => {
  const body = { ...create, operationId: 'OperationId000000001' };

  it('takes a trimmed title and defaults the description', () => {
    const { description: _d, ...noDescription } = body;
    expect(serviceCreateBody.parse({ ...noDescription, title: '  Review  ' })).toMatchObject({
      title: 'Review',
      description: '',
    });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a 20-minute service', { durationMinutes: 20 }, /durationMinutes: in steps of 15 minutes/],
    ['a 10-minute service', { durationMinutes: 10 }, /at least 15 minutes/],
    ['a nine-hour service', { durationMinutes: 540 }, /at most 480 minutes/],
    ['a price in fractions', { priceCredits: 1.5 }, /priceCredits: a whole number of credits/],
    ['a negative price', { priceCredits: -1 }, /at least 0 credits/],
    ['an empty title', { title: '   ' }, /title/],
    ['a made-up status', { status: 'featured' }, /./],
    ['no operation id', { operationId: undefined }, /operationId/],
  ])('refuses %s, naming the field', (_label, change, message) => {
    const parsed = serviceCreateBody.safeParse({ ...body, ...change });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')).toMatch(message);
  });

  it('refuses an empty patch', () => {
    expect(servicePatchBody.safeParse({}).success).toBe(false);
    expect(servicePatchBody.safeParse({ status: 'archived' }).success).toBe(true);
  });
});
