// The practice's bars over HTTP: the embedded server listening on a real socket (port 0) with its SQLite file,
// and every booking a request of its own through POST /api/bookings (core/wire.ts requestBooking), sent at once:
// 200 by one client with credits for 10 → exactly 10 succeed, the balance never below 0 and equal to the ledger's
// sum; 50 clients racing for one free slot → one booking. The routes' whole path runs (session, validation, rate
// limit, the service's transaction, the answer's schema); bookingBars.test.ts races the same transaction from
// several processes on one file.
import type { ErrorBody } from '../../core/errors';
import type { Booking, Slot } from '../../core/model';
import { write } from '../../server/db/database';
import { grantBalance } from '../../server/services/ledger';
import { withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { balanceOf, callerOf, contextOf, count, ledgerSumOf, opId, unbalanced } from './support/practice';

jest.setTimeout(120_000);

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
let origin: string;
withDemoServer((world) => ({ server, ids } = world));

beforeEach(async () => {
  origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
});

type Outcome = { status: number; booking?: Booking; error?: ErrorBody['error'] };

async function send(token: string, method: string, url: string, body?: unknown): Promise<Outcome> {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Booking | ErrorBody;
  return 'error' in answer
    ? { status: response.status, error: answer.error }
    : { status: response.status, booking: answer };
}

/** A 15-minute service at 1 credit, made and read through the routes, and its free times over two weeks. */
async function quarterHourService(): Promise<{ serviceId: string; slots: Slot[] }> {
  const token = ids.token.consultant;
  const made = await fetch(`${origin}/api/services`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Fifteen minutes',
      durationMinutes: 15,
      priceCredits: 1,
      operationId: opId(),
    }),
  });
  expect(made.status).toBe(200);
  const { id: serviceId } = (await made.json()) as { id: string };
  const hours = await fetch(`${origin}/api/hours`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      timeZone: 'UTC',
      hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: '08:00', end: '18:00' })),
    }),
  });
  expect(hours.status).toBe(200);
  const from = server.clock.now();
  const free = await fetch(
    `${origin}/api/free-slots?serviceId=${serviceId}&from=${from}&to=${from + 14 * DAY}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(free.status).toBe(200);
  const { slots } = (await free.json()) as { slots: Slot[] };
  return { serviceId, slots };
}

/** New people signed up as a person does, made clients of the consultant's `channelId`, granted `credits`. */
async function signedUpClients(
  channelId: string,
  howMany: number,
  credits: number,
): Promise<Array<{ uid: string; token: string }>> {
  const clients: Array<{ uid: string; token: string }> = [];
  for (let i = 0; i < howMany; i += 1) {
    const session = await server.signUp({ email: `http-client-${i}-${opId().toLowerCase()}@example.com` });
    clients.push({ uid: session.user.uid, token: session.accessToken });
  }
  const ctx = contextOf(server);
  write(ctx.db, () => {
    for (const client of clients) ctx.repos.channels.addMember(channelId, client.uid, server.clock.now());
  });
  for (const client of clients) {
    grantBalance(ctx, callerOf(ids, 'admin'), {
      userId: client.uid,
      credits,
      passes: 0,
      operationId: opId(),
    });
  }
  return clients;
}

const bookingOf = (serviceId: string, startsAt: number) => ({
  serviceId,
  startsAt,
  paymentMethod: 'credits',
  clientTimeZone: 'UTC',
  operationId: opId(),
});

describe('the embedded server over HTTP under simultaneous bookings', () => {
  it('books exactly what a balance of 10 credits allows out of 200 requests at once, never below 0', async () => {
    const { serviceId, slots } = await quarterHourService();
    expect(slots.length).toBeGreaterThanOrEqual(200);
    const [client] = await signedUpClients(ids.strategy, 1, 10);
    if (!client) throw new Error('no client');

    const outcomes = await Promise.all(
      slots
        .slice(0, 200)
        .map((slot) => send(client.token, 'POST', '/api/bookings', bookingOf(serviceId, slot.startsAt))),
    );

    const booked = outcomes.filter((o) => o.status === 200);
    expect(booked).toHaveLength(10);
    expect(booked.every((o) => o.booking?.payment.status === 'held')).toBe(true);
    expect(
      outcomes.filter((o) => o.status !== 200).map((o) => `${o.status} ${o.error?.details?.reason}`),
    ).toEqual(Array.from({ length: 190 }, () => '400 insufficient-credits'));
    expect(balanceOf(server, client.uid)).toEqual({ credits: 0, passes: 0 });
    expect(ledgerSumOf(server, client.uid)).toEqual({ credits: 0, passes: 0 });
    expect(count(server, 'SELECT COUNT(*) AS n FROM bookings WHERE client_id = ?', client.uid)).toBe(10);
    expect(
      server
        .query<{ balance_credits: number }>(
          `SELECT balance_credits FROM ledger WHERE uid = ? AND kind = 'hold'`,
          client.uid,
        )
        .map((e) => e.balance_credits)
        .sort((a, b) => b - a),
    ).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    // What the client reads through the routes agrees with the file.
    const ledger = await fetch(`${origin}/api/ledger`, {
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(((await ledger.json()) as { balance: unknown }).balance).toEqual({ credits: 0, passes: 0 });
    expect(unbalanced(server)).toEqual([]);
  });

  it('gives one free slot to exactly one of 50 clients racing for it over HTTP', async () => {
    const { serviceId, slots } = await quarterHourService();
    const slot = slots[0];
    if (!slot) throw new Error('no free slot');
    const clients = await signedUpClients(ids.growth, 50, 3);

    const outcomes = await Promise.all(
      clients.map((client) =>
        send(client.token, 'POST', '/api/bookings', bookingOf(serviceId, slot.startsAt)),
      ),
    );

    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(1);
    expect(
      outcomes.filter((o) => o.status !== 200).map((o) => `${o.status} ${o.error?.details?.reason}`),
    ).toEqual(Array.from({ length: 49 }, () => '400 slot-taken'));
    expect(count(server, 'SELECT COUNT(*) AS n FROM bookings WHERE starts_at = ?', slot.startsAt)).toBe(1);
    const paid = clients.filter((c) => balanceOf(server, c.uid).credits !== 3);
    expect(paid).toHaveLength(1);
    expect(balanceOf(server, paid[0]?.uid ?? '')).toEqual({ credits: 2, passes: 0 });
    expect(unbalanced(server)).toEqual([]);
  });
});
