import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { postToActiveWorker } from '@/platform/serviceWorker';
import {
  enableServiceWorkerMessaging,
  newEventId,
  requestFromWorker,
  SW_COMMUNICATION_TIMEOUT,
} from '@/sagas/serviceWorkerProtocol';
import { createVirtualTime } from '../support/virtualTime';

// redux-saga logs a saga's thrown error before the run rejects with it; the rejection is what is asserted.
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));

describe('requestFromWorker', () => {
  it('returns the worker’s parsed answer', async () => {
    const { returnValue } = await expectSaga(
      requestFromWorker,
      { type: 'HEALTH_CHECK', timestamp: 7 },
      'HEALTH_CHECK',
    )
      .provide([[matchers.call.fn(postToActiveWorker), { type: 'HEALTH_CHECK', timestamp: 7, extra: 1 }]])
      .run();
    expect(returnValue).toEqual({ type: 'HEALTH_CHECK', timestamp: 7 });
  });

  it("throws 'SW communication timeout' when no answer comes within 5 s (spec §8, §9)", async () => {
    const time = createVirtualTime();
    let settled = false;
    const run = expectSaga(requestFromWorker, { type: 'HEALTH_CHECK', timestamp: 1 }, 'HEALTH_CHECK')
      .provide([[matchers.call.fn(postToActiveWorker), new Promise(() => undefined)], time.provider])
      // No real-time limit: on a loaded machine expectSaga's default 250 ms ran out before the virtual 5 s did.
      .run({ timeout: false })
      .finally(() => (settled = true));
    const failed = expect(run).rejects.toThrow(SW_COMMUNICATION_TIMEOUT);
    await time.advance(4_999);
    expect(settled).toBe(false);
    await time.advance(1);
    await failed;
  });

  it.each([
    ['an answer of another type', { type: 'MESSAGING_ENABLED', success: true, eventId: 'x' }],
    ['garbage', 'hello'],
  ])('throws a protocol error for %s', async (_label, answer) => {
    await expect(
      expectSaga(requestFromWorker, { type: 'HEALTH_CHECK', timestamp: 1 }, 'HEALTH_CHECK')
        .provide([[matchers.call.fn(postToActiveWorker), answer]])
        .run(),
    ).rejects.toThrow('The service worker sent an answer QuPM does not understand');
  });
});

describe('enableServiceWorkerMessaging', () => {
  it('sends ENABLE_MESSAGING with a fresh eventId and resolves with the answer’s success', async () => {
    const sent: unknown[] = [];
    const { returnValue } = await expectSaga(enableServiceWorkerMessaging)
      .provide([
        [matchers.call.fn(newEventId), 'ev-9'],
        {
          call(effect, next) {
            if (effect.fn !== postToActiveWorker) return next();
            sent.push(effect.args[0]);
            return { type: 'MESSAGING_ENABLED', success: true, eventId: 'ev-9' };
          },
        },
      ])
      .run();
    expect(sent).toEqual([{ type: 'ENABLE_MESSAGING', eventId: 'ev-9' }]);
    expect(returnValue).toBe(true);
  });

  it('refuses an answer to another request', async () => {
    await expect(
      expectSaga(enableServiceWorkerMessaging)
        .provide([
          [matchers.call.fn(newEventId), 'ev-1'],
          [
            matchers.call.fn(postToActiveWorker),
            { type: 'MESSAGING_ENABLED', success: true, eventId: 'ev-2' },
          ],
        ])
        .run(),
    ).rejects.toThrow('The service worker answered another request');
  });

  it('passes on a worker that cannot be reached', async () => {
    await expect(
      expectSaga(enableServiceWorkerMessaging)
        .provide([[matchers.call.fn(postToActiveWorker), throwError(new Error('No active service worker'))]])
        .run(),
    ).rejects.toThrow('No active service worker');
  });
});

describe('newEventId', () => {
  it('never repeats within a page', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newEventId(1_000)));
    expect(ids.size).toBe(100);
  });
});
