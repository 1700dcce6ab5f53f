// The practice's kill bar: a server killed (SIGKILL) in the middle of bookings restarts with every acknowledged
// booking and ledger entry, each once, and every balance equal to its ledger. The server books through its own
// services in a process of its own (support/bookingChild.ts; over HTTP once the routes exist).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startTestServer } from './support/testServer';
import { count, unbalanced } from './support/practice';

jest.setTimeout(60_000);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-kill-bookings-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Ack {
  step: 'request' | 'confirm' | 'cancel';
  bookingId: string;
  operationId: string;
}

describe('a server killed while booking', () => {
  it('restarts with every acknowledged booking and ledger entry, each once, and every balance equal to its ledger', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'support/bookingChild.ts'), dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const acks: Ack[] = [];
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const [word, step, bookingId, operationId] = line.split(' ');
        if (word === 'ACK' && step && bookingId && operationId) {
          acks.push({ step: step as Ack['step'], bookingId, operationId });
          // In the middle of it: well after it started, well before its hundreds of slots run out.
          if (acks.length === 60) resolve();
        }
        if (word === 'FINISHED') reject(new Error('the bookings ended before the kill'));
      });
      child.on('exit', (code) => reject(new Error(`the server exited on its own (${code})`)));
    });
    child.kill('SIGKILL');
    await exited;

    // On the wall clock the killed server ran on: the test clock (January 2026) would put the mails it queued
    // months ahead, past what a timer can wait.
    const restarted = await startTestServer({ dir, keepDir: true, now: () => Date.now() });
    try {
      const requested = acks.filter((a) => a.step === 'request');
      const stored = new Map(
        restarted
          .query<{ id: string; state: string; client_id: string }>(
            'SELECT id, state, client_id FROM bookings',
          )
          .map((row) => [row.id, row]),
      );
      // Every acknowledged booking is there, once (ids are unique; each request's operation recorded once).
      expect(requested.filter((a) => !stored.has(a.bookingId))).toEqual([]);
      for (const ack of acks) {
        expect(
          count(
            restarted,
            'SELECT COUNT(*) AS n FROM operations WHERE id = ? AND result_id = ?',
            ack.operationId,
            ack.bookingId,
          ),
        ).toBe(1);
      }
      // What each acknowledged step did to the booking and to the client's ledger, once.
      for (const ack of acks) {
        const booking = stored.get(ack.bookingId);
        const entries = count(
          restarted,
          'SELECT COUNT(*) AS n FROM ledger WHERE id = ? AND booking_id = ?',
          ack.operationId,
          ack.bookingId,
        );
        expect(entries).toBe(1);
        if (ack.step === 'confirm') expect(booking?.state).toBe('confirmed');
        if (ack.step === 'cancel') expect(booking?.state).toBe('cancelled');
      }
      // Nothing half-written, acknowledged or not: every booking has its hold, every balance its ledger, and the
      // calendar holds exactly the open bookings' quarter hours.
      expect(
        count(
          restarted,
          `SELECT COUNT(*) AS n FROM bookings b WHERE NOT EXISTS (SELECT 1 FROM ledger l WHERE l.booking_id = b.id AND l.kind = 'hold')`,
        ),
      ).toBe(0);
      expect(unbalanced(restarted)).toEqual([]);
      expect(count(restarted, 'SELECT COUNT(*) AS n FROM booking_cells')).toBe(
        count(restarted, `SELECT COUNT(*) AS n FROM bookings WHERE state IN ('requested', 'confirmed')`),
      );
      expect(stored.size).toBeGreaterThanOrEqual(requested.length);
    } finally {
      await restarted.close();
    }
  });
});
