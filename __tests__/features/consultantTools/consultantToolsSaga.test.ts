// A consultant's tools: creating a channel puts it into the list and names it as saved, or says why not; the saga
// (loaded at the tools' first request) handles that request first, and one save of each kind at a time.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { consultantToolsSaga, handleChannelCreate } from '@/features/consultantTools/consultantToolsSaga';
import manage, {
  channelCreateRequested,
  channelUpdateRequested,
} from '@/features/consultantTools/manageSlice';
import channels, { selectOverview } from '@/store/channelsSlice';
import type { Channel } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ channels, manage });
type State = ReturnType<typeof reducer>;
const A = 'chanA000000000000001';
const backend = createFakeBackend() as unknown as Backend;
const channelA: Channel = {
  id: A,
  channelId: 'strategy',
  ownerId: 'o',
  title: 'Strategy',
  description: '',
  members: [],
  createdAt: 5,
};

describe('handleChannelCreate', () => {
  it('creates a channel, adds it to the list and names it as saved', async () => {
    const input = { channelId: 'strategy', title: 'Strategy', description: '' };
    const { storeState } = await expectSaga(handleChannelCreate, backend, channelCreateRequested(input))
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.channels.createChannel), channelA]])
      .call([backend.channels, backend.channels.createChannel], input)
      .run();
    expect(selectOverview(storeState as State).map((o) => o.channel.title)).toEqual(['Strategy']);
    expect((storeState as State).manage.save).toEqual({ status: 'saved', error: null, channelId: A });
  });

  it('says a taken handle is taken', async () => {
    const { storeState } = await expectSaga(
      handleChannelCreate,
      backend,
      channelCreateRequested({ channelId: 'taken', title: 'T', description: '' }),
    )
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.channels.createChannel),
          throwError(new BackendError('ALREADY_EXISTS', 'That handle is taken.')),
        ],
      ])
      .run();
    expect((storeState as State).manage.save).toMatchObject({
      status: 'failed',
      error: 'That handle is taken.',
    });
  });
});

describe('consultantToolsSaga', () => {
  const input = { channelId: 'strategy', title: 'Strategy', description: '' };

  it('saves the request that loaded its chunk, then the next ones', async () => {
    const { storeState, effects } = await expectSaga(consultantToolsSaga, backend, [
      channelCreateRequested(input),
    ])
      .withReducer(reducer)
      .provide([
        [matchers.call.fn(backend.channels.createChannel), channelA],
        [matchers.call.fn(backend.channels.updateChannel), { ...channelA, title: 'Renamed' }],
      ])
      .dispatch(channelUpdateRequested({ id: A, patch: { title: 'Renamed' } }))
      .silentRun(50);
    expect(effects.call?.filter((e) => e.payload.fn === backend.channels.createChannel)).toHaveLength(1);
    expect(selectOverview(storeState as State).map((o) => o.channel.title)).toEqual(['Renamed']);
  });

  it('asks once for a second press while a save is on its way', async () => {
    let finish!: (channel: Channel) => void;
    const slow = new Promise<Channel>((resolve) => (finish = resolve));
    const saga = expectSaga(consultantToolsSaga, backend)
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.channels.createChannel), slow]]);
    const run = saga.silentRun(50);
    saga.dispatch(channelCreateRequested(input));
    saga.dispatch(channelCreateRequested(input));
    finish(channelA);
    const { effects } = await run;
    expect(effects.call?.filter((e) => e.payload.fn === backend.channels.createChannel)).toHaveLength(1);
  });
});
