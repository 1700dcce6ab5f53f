// The embedded server in a process of its own, booking as fast as it can through its own services (the context
// its routes hand them: app.qupmContext), for the practice's kill test (durabilityBookings.test.ts): clients with
// credits book a 15-minute service, and the consultant confirms or the client cancels some of the bookings. Each
// step is printed once it has returned (it committed), as `ACK <step> <bookingId> <operationId>`; the parent kills
// the process (SIGKILL) in the middle and checks the restarted server holds every acknowledged step, once.
//
//   node --import tsx bookingChild.ts <dataDir>
import path from 'node:path';
import { buildServer } from '../../../server/app';
import { write } from '../../../server/db/database';
import { newDocumentId } from '../../../core/ids';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../core/model';
import type { Caller } from '../../../core/permissions';
import { DEMO_EMAILS } from '../../../server/demo';
import { cancelBooking, confirmBooking, requestBooking } from '../../../server/services/bookings';
import { createService, listFreeSlots } from '../../../server/services/catalog';
import { grantBalance } from '../../../server/services/ledger';

const CLIENTS = 8;
const LOOPS = 6;

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: bookingChild.ts <dataDir>');
  const app = await buildServer({
    staticDir: path.join(dataDir, 'no-build'),
    dataDir,
    scryptCost: 16,
    rateLimits: false,
  });
  const ctx = app.qupmContext;
  const uidOf = (email: string): string => ctx.repos.users.findAccountByEmail(email)?.uid ?? '';
  const consultant: Caller = {
    uid: uidOf(DEMO_EMAILS.consultant),
    email: DEMO_EMAILS.consultant,
    isAdmin: false,
  };
  const admin: Caller = { uid: uidOf(DEMO_EMAILS.admin), email: DEMO_EMAILS.admin, isAdmin: true };
  const channelId = ctx.repos.channels.listFor(consultant.uid).find((c) => c.kind !== 'private')?.id ?? '';

  const clients: Caller[] = Array.from({ length: CLIENTS }, (_, i) => ({
    uid: newDocumentId(),
    email: `kill-client-${i}@example.com`,
    isAdmin: false,
  }));
  write(ctx.db, () => {
    for (const client of clients) {
      ctx.repos.users.insert({
        uid: client.uid,
        email: client.email,
        passwordHash: '',
        notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
        createdAt: ctx.now(),
      });
      ctx.repos.channels.addMember(channelId, client.uid, ctx.now());
    }
  });
  for (const client of clients) {
    grantBalance(ctx, admin, { userId: client.uid, credits: 1000, passes: 0, operationId: newDocumentId() });
  }
  const service = createService(ctx, consultant, {
    title: 'Kill test',
    description: '',
    durationMinutes: 15,
    priceCredits: 1,
    operationId: newDocumentId(),
  });
  const slots = listFreeSlots(ctx, consultant, {
    serviceId: service.id,
    from: ctx.now(),
    to: ctx.now() + 30 * 24 * 60 * 60 * 1000,
  }).slots;
  process.stdout.write(`READY ${slots.length}\n`);

  let next = 0;
  const ack = (step: string, bookingId: string, operationId: string): void => {
    process.stdout.write(`ACK ${step} ${bookingId} ${operationId}\n`);
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  await Promise.all(
    Array.from({ length: LOOPS }, async () => {
      for (;;) {
        const slot = slots[next];
        next += 1;
        if (!slot) return;
        const client = clients[next % CLIENTS] as Caller;
        const request = newDocumentId();
        const booking = requestBooking(ctx, client, {
          serviceId: service.id,
          startsAt: slot.startsAt,
          paymentMethod: 'credits',
          clientTimeZone: 'UTC',
          operationId: request,
        });
        ack('request', booking.id, request);
        await turn();
        const then = newDocumentId();
        if (next % 3 === 0) {
          cancelBooking(ctx, client, { bookingId: booking.id, operationId: then });
          ack('cancel', booking.id, then);
        } else {
          confirmBooking(ctx, consultant, { bookingId: booking.id, operationId: then });
          ack('confirm', booking.id, then);
        }
        await turn();
      }
    }),
  );
  process.stdout.write('FINISHED\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
