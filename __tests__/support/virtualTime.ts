// Virtual time for saga tests (STYLE.md 12: time driven by a dynamic provider on `delay`, never real waiting).
// redux-saga's `delay(ms)` is `call(delayP, ms)`: this provider answers it with a promise that resolves when the
// test advances the virtual clock past it, in due order, and that is removed when the saga cancels it, so a test
// can also see which timers are still live.
import delayP from '@redux-saga/delay-p';
import { CANCEL } from 'redux-saga';
import type { Saga } from 'redux-saga';
import type { UnknownAction } from '@reduxjs/toolkit';
import { call, race, take } from 'redux-saga/effects';

interface Timer {
  at: number;
  seq: number;
  ms: number;
  resolve: () => void;
}

type CallEffect = { fn: unknown; args: unknown[] };
type Next = () => unknown;

export interface VirtualTime {
  now(): number;
  /** Every delay the sagas asked for, in order (cancelled ones included). */
  readonly requested: number[];
  /** The durations of the delays still pending. */
  live(): number[];
  /** Dynamic provider for expectSaga's `provide([...])`. */
  readonly provider: { call(effect: CallEffect, next: Next): unknown };
  /** Resolves when the clock passes `ms` from now, in order with the sagas' delays (a slow device's write, say). */
  after(ms: number): Promise<void>;
  /** Moves the clock forward by `ms`, firing due timers one by one in order and letting the sagas run. */
  advance(ms: number): Promise<void>;
  /** Lets pending promises and saga steps settle without moving the clock. */
  flush(): Promise<void>;
}

export const START = Date.UTC(2026, 0, 15, 12);

/** What ends a saga run under `untilEnded`. */
export const END_TEST = { type: 'test/end' };

/**
 * Runs `saga` until the test dispatches END_TEST: a saga that never ends (a watcher) then ends when the test has
 * advanced the clock as far as it means to, however long that took. expectSaga's own timeout is real time, and on a
 * loaded machine it cut such runs short before the clock was advanced (a dimming never seen, run 18). Give the
 * run a generous timeout: then it only stops a hang.
 */
export function* untilEnded(saga: Saga, ...args: unknown[]) {
  yield race({ ran: call(saga, ...args), ended: take(END_TEST.type) });
}

/** Lets pending promises and saga steps settle (twenty turns of the event loop), on any clock. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** How a run of `untilEnded` is started: no real-time bound of its own; `endRun` ends it. */
export const UNTIL_ENDED = { timeout: false } as const;

/**
 * Ends a run of `untilEnded` started with `run(UNTIL_ENDED)` once what the test set going has settled, and
 * answers its result. The run has no real-time bound of its own (redux-saga-test-plan's timer would outlive it, and
 * a loaded machine once ended such runs before the test was done); Jest's bound stops one that hangs.
 */
export async function endRun<T>(
  saga: { dispatch(action: UnknownAction): unknown },
  running: Promise<T>,
): Promise<T> {
  await settle();
  saga.dispatch(END_TEST);
  return running;
}

export function createVirtualTime(start = START): VirtualTime {
  let now = start;
  let seq = 0;
  const timers: Timer[] = [];
  const requested: number[] = [];

  const flush = settle;

  return {
    now: () => now,
    requested,
    live: () => timers.map((timer) => timer.ms),
    provider: {
      call(effect, next) {
        if (effect.fn !== delayP) return next();
        const ms = Number(effect.args[0]);
        requested.push(ms);
        let timer!: Timer;
        const promise = new Promise<true>((resolve) => {
          timer = { at: now + ms, seq: (seq += 1), ms, resolve: () => resolve(true) };
          timers.push(timer);
        });
        Object.assign(promise, {
          [CANCEL]: () => {
            const index = timers.indexOf(timer);
            if (index >= 0) timers.splice(index, 1);
          },
        });
        return promise;
      },
    },
    after(ms) {
      return new Promise<void>((resolve) => {
        timers.push({ at: now + ms, seq: (seq += 1), ms, resolve });
      });
    },
    async advance(ms) {
      const target = now + ms;
      await flush();
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const due = timers[0];
        if (!due || due.at > target) break;
        timers.shift();
        now = due.at;
        due.resolve();
        await flush();
      }
      now = target;
      await flush();
    },
    flush,
  };
}
