// The mutes saga: the person's mutes read when a session starts and after live data resumes,
// and each change they ask for sent to the backend, its answer or refusal (in words for a person) stored.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { MUTE_MESSAGES } from '@core/mutes';
import {
  handleMuteRequested,
  handleMutesRequested,
  handleUnmuteRequested,
  runMutesSession,
  watchMutes,
} from '@/sagas/mutesSaga';
import { liveResumed } from '@/store/liveSlice';
import { muteRequested, muteSaved, unmuteRequested } from '@/store/mutesSlice';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { createFakeBackend } from '../support/fakeBackend';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 23, 12);

function backendWith() {
  const fake = createFakeBackend();
  // No live change unless a test sends one.
  fake.mutes.subscribeMutes.mockImplementation(() => () => undefined);
  return { fake, backend: fake as unknown as Backend };
}

/** A backend whose live mutes the test sends (`send`), and whether the subscription was stopped. */
function liveBackend() {
  const { fake, backend } = backendWith();
  let listener: ((mutes: Record<string, number>) => void) | null = null;
  const stopped = jest.fn();
  fake.mutes.subscribeMutes.mockImplementation((l) => {
    listener = l;
    return stopped;
  });
  const send = (mutes: Record<string, number>) => {
    if (!listener) throw new Error('not subscribed');
    listener(mutes);
  };
  return { fake, backend, send, stopped };
}

const mutesOf = (result: { storeState: unknown }) => (result.storeState as RootState).mutes;

describe('handleMuteRequested', () => {
  it("stores until when the backend muted the channel (its clock, not this device's)", async () => {
    const { fake, backend } = backendWith();
    fake.mutes.muteChannel.mockResolvedValue({ channelId: 'c1', mutedUntil: NOW + 8 * HOUR });
    const asked = muteRequested({ channelId: 'c1', duration: '8h' });
    const result = await expectSaga(handleMuteRequested, backend, asked)
      .withReducer(rootReducer, rootReducer(undefined, asked))
      .run();
    expect(fake.mutes.muteChannel).toHaveBeenCalledWith('c1', '8h');
    expect(mutesOf(result)).toMatchObject({ byChannel: { c1: NOW + 8 * HOUR }, saving: {}, errors: {} });
  });

  it('keeps a refusal in the words the backend gave, and the channel unmuted', async () => {
    const { backend } = backendWith();
    const asked = muteRequested({ channelId: 'c1', duration: '1h' });
    const result = await expectSaga(handleMuteRequested, backend, asked)
      .withReducer(rootReducer, rootReducer(undefined, asked))
      .provide([
        [
          matchers.call.fn(backend.mutes.muteChannel),
          throwError(new BackendError('PERMISSION_DENIED', MUTE_MESSAGES.notInChannel)),
        ],
      ])
      .run();
    expect(mutesOf(result)).toMatchObject({
      byChannel: {},
      saving: {},
      errors: { c1: MUTE_MESSAGES.notInChannel },
    });
  });
});

describe('handleUnmuteRequested', () => {
  it('unmutes, and keeps the mute when the backend refuses', async () => {
    const { fake, backend } = backendWith();
    const muted = rootReducer(undefined, muteSaved({ channelId: 'c1', mutedUntil: NOW + HOUR }));
    fake.mutes.unmuteChannel.mockResolvedValue(undefined);
    const asked = unmuteRequested({ channelId: 'c1' });
    const done = await expectSaga(handleUnmuteRequested, backend, asked)
      .withReducer(rootReducer, rootReducer(muted, asked))
      .run();
    expect(mutesOf(done).byChannel).toEqual({});

    fake.mutes.unmuteChannel.mockRejectedValue(new BackendError('UNAVAILABLE', 'You are offline.'));
    const refused = await expectSaga(handleUnmuteRequested, backend, asked)
      .withReducer(rootReducer, rootReducer(muted, asked))
      .run();
    expect(mutesOf(refused)).toMatchObject({
      byChannel: { c1: NOW + HOUR },
      errors: { c1: 'You are offline.' },
    });
  });
});

describe('reading the mutes', () => {
  it('reads them when the session starts and again when live data resumes', async () => {
    const { fake, backend } = backendWith();
    fake.mutes.listMutes
      .mockResolvedValueOnce({ c1: NOW + HOUR })
      .mockResolvedValueOnce({})
      .mockResolvedValueOnce({ c2: NOW + HOUR });
    const first = await expectSaga(runMutesSession, 'me', backend).withReducer(rootReducer).silentRun(20);
    expect(mutesOf(first)).toMatchObject({ status: 'loaded', byChannel: { c1: NOW + HOUR } });
    const resumed = await expectSaga(runMutesSession, 'me', backend)
      .withReducer(rootReducer)
      .dispatch(liveResumed())
      .silentRun(20);
    expect(mutesOf(resumed).byChannel).toEqual({ c2: NOW + HOUR });
    expect(fake.mutes.listMutes).toHaveBeenCalledTimes(3);
  });

  it('reads them as unmuted when the backend cannot say', async () => {
    const { fake, backend } = backendWith();
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    fake.mutes.listMutes.mockRejectedValue(new BackendError('UNAVAILABLE', 'offline'));
    const result = await expectSaga(handleMutesRequested, backend).withReducer(rootReducer).run();
    expect(mutesOf(result)).toMatchObject({ status: 'failed', byChannel: {} });
  });
});

describe('live mutes', () => {
  it('takes a mute and an unmute made in another window as they come', async () => {
    const { fake, backend, send } = liveBackend();
    fake.mutes.listMutes.mockResolvedValue({});
    const saga = expectSaga(runMutesSession, 'me', backend).withReducer(rootReducer);
    // The session runs until this bound; the three changes come within its first 30 ms on a quiet machine. At 60 ms
    // it ended before the last change under CI's load (load 17).
    const run = saga.silentRun(1_000);
    await new Promise((resolve) => setTimeout(resolve, 10));
    send({ c1: NOW + HOUR });
    await new Promise((resolve) => setTimeout(resolve, 10));
    send({ c1: NOW + HOUR, c2: NOW + 8 * HOUR });
    await new Promise((resolve) => setTimeout(resolve, 10));
    send({ c2: NOW + 8 * HOUR });
    const result = await run;
    expect(mutesOf(result)).toMatchObject({ status: 'loaded', byChannel: { c2: NOW + 8 * HOUR } });
  });

  it('stops listening when the session ends', async () => {
    const { backend, stopped } = liveBackend();
    const task = await expectSaga(watchMutes, backend).withReducer(rootReducer).silentRun(20);
    expect(mutesOf(task).byChannel).toEqual({});
    expect(stopped).toHaveBeenCalledTimes(1);
  });
});
