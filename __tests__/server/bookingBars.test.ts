// The practice's bars on the embedded server, measured on a real SQLite file: 200 simultaneous bookings by one
// client with credits for 10 → exactly 10 succeed, the balance never below 0 and equal to the ledger's sum; 50
// clients racing for one free slot → one booking. The requests run through the booking service's own write
// transaction, at once from the running server (app.qupmContext) and from worker processes on the same file, so
// the file's lock decides (support/bookingWorker.ts). Over HTTP they come with the routes.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { QupmError } from '../../core/errors';
import type { Caller } from '../../core/permissions';
import type { Slot } from '../../core/model';
import { requestBooking } from '../../server/services/bookings';
import { createService, listFreeSlots } from '../../server/services/catalog';
import { withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import {
  addClients,
  balanceOf,
  callerOf,
  contextOf,
  count,
  ledgerSumOf,
  opId,
  unbalanced,
} from './support/practice';

jest.setTimeout(60_000);

const DAY = 24 * 60 * 60 * 1000;
const WORKERS = 3;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

type Request = { caller: Caller; input: Parameters<typeof requestBooking>[2] };
type Outcome = { operationId: string; ok: boolean; bookingId?: string; status?: string; reason?: string };

/** A 15-minute service at 1 credit, and its free times over two weeks. */
function quarterHourService(): { serviceId: string; slots: Slot[] } {
  const ctx = contextOf(server);
  const service = createService(ctx, callerOf(ids, 'consultant'), {
    title: 'Fifteen minutes',
    description: '',
    durationMinutes: 15,
    priceCredits: 1,
    operationId: opId(),
  });
  const { slots } = listFreeSlots(ctx, callerOf(ids, 'consultant'), {
    serviceId: service.id,
    from: server.clock.now(),
    to: server.clock.now() + 14 * DAY,
  });
  return { serviceId: service.id, slots };
}

/** One worker process on the server's file, ready to send its share when told. */
function worker(requests: Request[]): { ready: Promise<void>; go(): void; done: Promise<Outcome[]> } {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(__dirname, 'support/bookingWorker.ts'),
      server.dbFile,
      String(server.clock.now()),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const outcomes: Outcome[] = [];
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const done = new Promise<Outcome[]>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'READY') ready();
      else if (line === 'DONE') resolve(outcomes);
      else outcomes.push(JSON.parse(line) as Outcome);
    });
    child.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`worker exited with ${code}`))));
  });
  child.stdin.write(`${JSON.stringify(requests)}\n`);
  return { ready: isReady, go: () => child.stdin.end('GO\n'), done };
}

/** The server's own share, sent from its process as requests arriving together would be. */
async function inServer(requests: Request[]): Promise<Outcome[]> {
  const ctx = contextOf(server);
  return Promise.all(
    requests.map(
      (request) =>
        new Promise<Outcome>((resolve) =>
          setImmediate(() => {
            try {
              const booking = requestBooking(ctx, request.caller, request.input);
              resolve({ operationId: request.input.operationId, ok: true, bookingId: booking.id });
            } catch (error) {
              if (!(error instanceof QupmError)) throw error;
              resolve({
                operationId: request.input.operationId,
                ok: false,
                status: error.status,
                ...(error.reason ? { reason: error.reason } : {}),
              });
            }
          }),
        ),
    ),
  );
}

/** Sends every request at once: shares to the workers and the server, released together. */
async function allAtOnce(requests: Request[]): Promise<Outcome[]> {
  const shares = Array.from({ length: WORKERS + 1 }, (_, i) =>
    requests.filter((_r, j) => j % (WORKERS + 1) === i),
  );
  const workers = shares.slice(1).map(worker);
  // Every worker has its share and waits; then all go, and the server sends its own.
  await Promise.all(workers.map((w) => w.ready));
  workers.forEach((w) => w.go());
  const [own, ...others] = await Promise.all([inServer(shares[0] ?? []), ...workers.map((w) => w.done)]);
  return [...(own ?? []), ...others.flat()];
}

describe('the embedded server under simultaneous bookings', () => {
  it('books exactly what a balance of 10 credits allows out of 200 at once, never below 0, the ledger equal to the balance', async () => {
    const { serviceId, slots } = quarterHourService();
    expect(slots.length).toBeGreaterThanOrEqual(200);
    const [client] = addClients(server, ids, ids.strategy, 1, 10);
    if (!client) throw new Error('no client');
    const requests: Request[] = slots.slice(0, 200).map((slot) => ({
      caller: client,
      input: {
        serviceId,
        startsAt: slot.startsAt,
        paymentMethod: 'credits',
        clientTimeZone: 'UTC',
        operationId: opId(),
      },
    }));

    const outcomes = await allAtOnce(requests);

    expect(outcomes).toHaveLength(200);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    expect(outcomes.filter((o) => !o.ok).map((o) => `${o.status} ${o.reason}`)).toEqual(
      Array.from({ length: 190 }, () => 'FAILED_PRECONDITION insufficient-credits'),
    );
    expect(balanceOf(server, client.uid)).toEqual({ credits: 0, passes: 0 });
    expect(ledgerSumOf(server, client.uid)).toEqual({ credits: 0, passes: 0 });
    expect(count(server, 'SELECT COUNT(*) AS n FROM bookings WHERE client_id = ?', client.uid)).toBe(10);
    expect(
      count(server, `SELECT COUNT(*) AS n FROM ledger WHERE uid = ? AND kind = 'hold'`, client.uid),
    ).toBe(10);
    // The balance after each hold, in the order they were written: 9, 8, … 0, never below.
    expect(
      server
        .query<{ balance_credits: number }>(
          `SELECT balance_credits FROM ledger WHERE uid = ? AND kind = 'hold'`,
          client.uid,
        )
        .map((e) => e.balance_credits)
        .sort((a, b) => b - a),
    ).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(unbalanced(server)).toEqual([]);
  });

  it('gives one free slot to exactly one of 50 clients racing for it', async () => {
    const { serviceId, slots } = quarterHourService();
    const slot = slots[0];
    if (!slot) throw new Error('no free slot');
    const clients = addClients(server, ids, ids.growth, 50, 3);
    const requests: Request[] = clients.map((caller) => ({
      caller,
      input: {
        serviceId,
        startsAt: slot.startsAt,
        paymentMethod: 'credits',
        clientTimeZone: 'UTC',
        operationId: opId(),
      },
    }));

    const outcomes = await allAtOnce(requests);

    const winners = outcomes.filter((o) => o.ok);
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => o.reason)).toEqual(
      Array.from({ length: 49 }, () => 'slot-taken'),
    );
    expect(count(server, 'SELECT COUNT(*) AS n FROM bookings WHERE starts_at = ?', slot.startsAt)).toBe(1);
    expect(count(server, 'SELECT COUNT(*) AS n FROM booking_cells WHERE cell = ?', slot.startsAt)).toBe(1);
    // Only the one who booked paid; the others' credits are where they were.
    const paid = clients.filter((c) => balanceOf(server, c.uid).credits !== 3);
    expect(paid).toHaveLength(1);
    expect(balanceOf(server, paid[0]?.uid ?? '')).toEqual({ credits: 2, passes: 0 });
    expect(unbalanced(server)).toEqual([]);
  });
});
