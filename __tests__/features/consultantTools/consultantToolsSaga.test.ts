// A consultant's tools: creating a channel puts it into the list and names it as saved, or says why not.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { handleChannelCreate } from '@/features/consultantTools/consultantToolsSaga';
import manage, { channelCreateRequested } from '@/features/consultantTools/manageSlice';
import channels from '@/store/channelsSlice';
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
    expect((storeState as State).channels.items.map((o) => o.channel.title)).toEqual(['Strategy']);
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
