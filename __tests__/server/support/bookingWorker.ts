// A process of its own that books on a server's SQLite file through the same service the server runs
// (server/services/bookings.ts requestBooking: the same write transaction, BEGIN IMMEDIATE and busy timeout), so
// that several of them and the server itself contend for the file for real (the practice's bars, before the
// routes exist; with them, the same bars run over HTTP).
//
//   node --import tsx bookingWorker.ts <database file> <clock ms>
//   stdin:  one JSON line [{ caller, input }, …], then a line GO when every worker is ready
//   stdout: READY, then one JSON line per request { operationId, ok, bookingId? | status, reason? }, then DONE
import { createInterface } from 'node:readline';
import { openDatabase } from '../../../server/db/database';
import { createRepos } from '../../../server/repo';
import { EventHub } from '../../../server/hub';
import { consoleTransport, parseMailFrom } from '../../../server/services/mail';
import { requestBooking } from '../../../server/services/bookings';
import type { BookingContext } from '../../../server/services/bookings';
import { QupmError } from '../../../core/errors';
import type { Caller } from '../../../core/permissions';

type Request = { caller: Caller; input: Parameters<typeof requestBooking>[2] };

async function main(): Promise<void> {
  const [file, clock] = process.argv.slice(2);
  if (!file || !clock) throw new Error('usage: bookingWorker.ts <database file> <clock ms>');
  const db = openDatabase(file);
  const ctx: BookingContext = {
    db,
    repos: createRepos(db),
    hub: new EventHub(),
    now: () => Number(clock),
    pushQueue: { wake: () => undefined },
    // Mail is queued in the file (the server's queue sends it); nothing here sends any.
    mail: {
      from: parseMailFrom('QuPM <no-reply@qupm.invalid>'),
      transport: consoleTransport(() => undefined),
      publicUrl: () => 'http://qupm.test',
    },
    mailQueue: { wake: () => undefined },
  };
  const lines = createInterface({ input: process.stdin });
  let requests: Request[] = [];
  for await (const line of lines) {
    if (line === 'GO') break;
    requests = JSON.parse(line) as Request[];
    process.stdout.write('READY\n');
  }
  for (const { caller, input } of requests) {
    try {
      const booking = requestBooking(ctx, caller, input);
      process.stdout.write(
        `${JSON.stringify({ operationId: input.operationId, ok: true, bookingId: booking.id })}\n`,
      );
    } catch (error) {
      if (!(error instanceof QupmError)) throw error;
      process.stdout.write(
        `${JSON.stringify({ operationId: input.operationId, ok: false, status: error.status, reason: error.reason })}\n`,
      );
    }
    // Let the others in between two requests, as requests arriving one after another would.
    await new Promise((resolve) => setImmediate(resolve));
  }
  db.close();
  process.stdout.write('DONE\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
