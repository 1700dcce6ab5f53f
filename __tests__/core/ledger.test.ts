// The ledger (core/ledger.ts): what each kind of entry does to a balance, that it never goes below zero, that the
// sum of a person's entries is their balance, who may grant, and what a consultant's services earned.
import fc from 'fast-check';
import { QupmError } from '@core/errors';
import {
  assertCanGrant,
  deltaOf,
  ledgerEntry,
  LEDGER_KINDS,
  sortLedger,
  sumLedger,
  summarizeEarnings,
} from '@core/ledger';
import type { LedgerMove } from '@core/ledger';
import type { Balance, Booking, LedgerEntry } from '@core/model';
import { refusal } from '../support/refusal';

describe('deltaOf', () => {
  it.each<[LedgerMove['kind'], Balance]>([
    ['hold', { credits: -3, passes: -1 }],
    ['capture', { credits: 0, passes: 0 }],
    ['release', { credits: 3, passes: 1 }],
    ['refund', { credits: 3, passes: 1 }],
    ['grant', { credits: 3, passes: 1 }],
    ['invitation', { credits: 3, passes: 1 }],
    ['opening', { credits: 3, passes: 1 }],
  ])('%s of 3 credits and a pass moves the balance by %o', (kind, delta) => {
    expect(deltaOf(kind, { credits: 3, passes: 1 })).toEqual(delta);
  });
});

describe('ledgerEntry', () => {
  it('records the move, what it was about, and the balance after it', () => {
    expect(
      ledgerEntry({
        id: 'op1',
        uid: 'morgan',
        move: { kind: 'hold', amount: { credits: 2, passes: 0 }, bookingId: 'B1', serviceId: 'S1' },
        before: { credits: 5, passes: 1 },
        createdAt: 100,
      }),
    ).toEqual({
      id: 'op1',
      uid: 'morgan',
      kind: 'hold',
      delta: { credits: -2, passes: 0 },
      amount: { credits: 2, passes: 0 },
      balanceAfter: { credits: 3, passes: 1 },
      createdAt: 100,
      bookingId: 'B1',
      serviceId: 'S1',
    });
  });

  it('refuses a hold the balance cannot cover, saying what it costs and what there is', () => {
    const error = refusal(() =>
      ledgerEntry({
        id: 'x',
        uid: 'm',
        move: { kind: 'hold', amount: { credits: 4, passes: 0 } },
        before: { credits: 3, passes: 2 },
        createdAt: 0,
      }),
    );
    expect(error).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'insufficient-credits',
      message: 'This session costs 4 credits and you have 3. Nothing was booked.',
    });
    expect(
      refusal(() =>
        ledgerEntry({
          id: 'x',
          uid: 'm',
          move: { kind: 'hold', amount: { credits: 0, passes: 1 } },
          before: { credits: 9, passes: 0 },
          createdAt: 0,
        }),
      ).reason,
    ).toBe('no-pass');
  });

  it('refuses amounts that are not whole and non-negative', () => {
    for (const credits of [-1, 1.5, Number.NaN]) {
      expect(
        refusal(() =>
          ledgerEntry({
            id: 'x',
            uid: 'm',
            move: { kind: 'grant', amount: { credits, passes: 0 } },
            before: { credits: 0, passes: 0 },
            createdAt: 0,
          }),
        ).status,
      ).toBe('INVALID_ARGUMENT');
    }
  });

  it('keeps the sum of the entries equal to the balance, and the balance never below zero, whatever moves are tried (property)', () => {
    const move = fc.record({
      kind: fc.constantFrom(...LEDGER_KINDS),
      credits: fc.integer({ min: 0, max: 20 }),
      passes: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(move, { maxLength: 60 }), (moves) => {
        let balance: Balance = { credits: 0, passes: 0 };
        const written: LedgerEntry[] = [];
        moves.forEach((m, i) => {
          try {
            const entry = ledgerEntry({
              id: `op${i}`,
              uid: 'm',
              move: { kind: m.kind, amount: { credits: m.credits, passes: m.passes } },
              before: balance,
              createdAt: i,
            });
            written.push(entry);
            balance = entry.balanceAfter;
          } catch (error) {
            expect(error).toBeInstanceOf(QupmError);
          }
          expect(balance.credits).toBeGreaterThanOrEqual(0);
          expect(balance.passes).toBeGreaterThanOrEqual(0);
        });
        expect(sumLedger(written)).toEqual(balance);
      }),
    );
  });
});

describe('sortLedger', () => {
  it('puts the newest first, ties by id', () => {
    const entries = [
      { id: 'a', createdAt: 1, kind: 'grant' as const },
      { id: 'c', createdAt: 2, kind: 'hold' as const },
      { id: 'b', createdAt: 2, kind: 'grant' as const },
    ];
    expect(sortLedger(entries).map((e) => e.id)).toEqual(['c', 'b', 'a']);
  });

  it('puts the opening entry after a move written at its time, whatever the ids', () => {
    // 'zz' sorts before 'opening' by id: the opening entry, written with that move on Firestore, is older still.
    for (const id of ['zz', 'aa']) {
      const entries = [
        { id: 'opening', createdAt: 5, kind: 'opening' as const },
        { id, createdAt: 5, kind: 'hold' as const },
      ];
      expect(sortLedger(entries).map((e) => e.id)).toEqual([id, 'opening']);
    }
  });
});

describe('assertCanGrant', () => {
  const one = { credits: 1, passes: 0 };

  it('lets a consultant grant to a client of theirs, and an admin to anyone', () => {
    expect(() =>
      assertCanGrant({
        caller: { uid: 'dana', isAdmin: false, isOwner: true },
        targetUid: 'morgan',
        isClient: true,
        amount: one,
      }),
    ).not.toThrow();
    expect(() =>
      assertCanGrant({
        caller: { uid: 'root', isAdmin: true, isOwner: false },
        targetUid: 'morgan',
        isClient: false,
        amount: one,
      }),
    ).not.toThrow();
  });

  it.each<[string, Parameters<typeof assertCanGrant>[0], string]>([
    [
      'a consultant to someone not their client',
      {
        caller: { uid: 'dana', isAdmin: false, isOwner: true },
        targetUid: 'sam',
        isClient: false,
        amount: one,
      },
      'PERMISSION_DENIED',
    ],
    [
      'a client to another',
      {
        caller: { uid: 'morgan', isAdmin: false, isOwner: false },
        targetUid: 'sam',
        isClient: true,
        amount: one,
      },
      'PERMISSION_DENIED',
    ],
    [
      'an admin to themself',
      {
        caller: { uid: 'root', isAdmin: true, isOwner: false },
        targetUid: 'root',
        isClient: false,
        amount: one,
      },
      'PERMISSION_DENIED',
    ],
    [
      'nothing at all',
      {
        caller: { uid: 'root', isAdmin: true, isOwner: false },
        targetUid: 'm',
        isClient: false,
        amount: { credits: 0, passes: 0 },
      },
      'INVALID_ARGUMENT',
    ],
  ])('refuses %s', (_label, input, status) => {
    expect(refusal(() => assertCanGrant(input)).status).toBe(status);
  });
});

describe('summarizeEarnings', () => {
  const booking = (over: Partial<Booking> & Pick<Booking, 'id'>): Booking => ({
    consultantId: 'dana',
    clientId: 'morgan',
    serviceId: 'S1',
    serviceTitle: 'Strategy',
    durationMinutes: 60,
    startsAt: 1000,
    endsAt: 2000,
    state: 'confirmed',
    payment: { method: 'credits', amount: 4, listPrice: 4, status: 'captured' },
    channelId: 'P',
    clientTimeZone: 'UTC',
    consultantTimeZone: 'UTC',
    sequence: 1,
    createdAt: 0,
    updatedAt: 0,
    ...over,
  });

  it('counts what was taken and kept, by service, and the offers behind it', () => {
    const earnings = summarizeEarnings([
      booking({ id: 'b1' }),
      booking({
        id: 'b2',
        payment: {
          method: 'credits',
          amount: 3,
          listPrice: 4,
          offerId: 'O1',
          discountPercent: 25,
          status: 'captured',
        },
        startsAt: 3000,
      }),
      booking({ id: 'b3', payment: { method: 'pass', amount: 1, listPrice: 4, status: 'captured' } }),
      booking({
        id: 'b4',
        state: 'cancelled',
        payment: { method: 'credits', amount: 4, listPrice: 4, status: 'refunded' },
      }),
      booking({
        id: 'b5',
        state: 'requested',
        payment: { method: 'credits', amount: 4, listPrice: 4, status: 'held' },
      }),
      booking({ id: 'b6', serviceId: 'S0', serviceTitle: 'Audit' }),
    ]);
    expect(earnings.services).toEqual([
      { serviceId: 'S0', serviceTitle: 'Audit', sessions: 1, credits: 4, passes: 0 },
      { serviceId: 'S1', serviceTitle: 'Strategy', sessions: 3, credits: 7, passes: 1 },
    ]);
    expect(earnings.total).toEqual({ sessions: 4, credits: 11, passes: 1 });
    expect(earnings.offersUsed).toEqual([
      {
        offerId: 'O1',
        discountPercent: 25,
        bookingId: 'b2',
        serviceTitle: 'Strategy',
        clientId: 'morgan',
        startsAt: 3000,
        creditsOff: 1,
      },
    ]);
  });
});
