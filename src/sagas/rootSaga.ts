// The root saga spawns every feature saga, each supervised: spawned sagas are detached, so one that fails never
// stops the others, and the supervisor starts it again (reported, with backoff) so it never stays stopped.
import { all, spawn } from 'redux-saga/effects';
import type { Saga } from 'redux-saga';
import { settingsSaga } from '@/features/settings/settingsSaga';
import { adminSaga } from '@/features/settings/adminSaga';
import { appSaga } from './appSaga';
import { authSaga } from './authSaga';
import { chunkRecoverySaga } from './chunkRecoverySaga';
import { lazyDebugMenuSaga } from './lazyDebugMenu';
import { inboxSaga } from './inboxSaga';
import { mainSaga } from '@/features/main/mainSaga';
import { channelsSaga } from './channelsSaga';
import { invitationsSaga } from './invitationsSaga';
import { offersSaga } from './offersSaga';
import { pushSaga } from './push/pushSaga';
import { serviceWorkerSaga } from './serviceWorkerSaga';
import { startupSaga } from './startupSaga';
import { swHealthSaga } from './swHealthSaga';
import { updateSaga } from './updateSaga';
import { lazyConversationSaga } from './lazyConversation';
import { superviseQuietly } from './supervise';

// The inbox saga starts before the worker registers, so a PUSH_MSG sent at once finds its listener.
export const appSagas: Record<string, Saga> = {
  app: appSaga,
  inbox: inboxSaga,
  startup: startupSaga,
  'chunk recovery': chunkRecoverySaga,
  'service worker': serviceWorkerSaga,
  'service worker health': swHealthSaga,
  update: updateSaga,
  auth: authSaga,
  push: pushSaga,
  channels: channelsSaga,
  conversation: lazyConversationSaga,
  offers: offersSaga,
  invitations: invitationsSaga,
  main: mainSaga,
  settings: settingsSaga,
  admin: adminSaga,
  'debug menu': lazyDebugMenuSaga,
};

export function createRootSaga(sagas: Record<string, Saga>) {
  return function* rootSaga() {
    yield all(Object.entries(sagas).map(([name, saga]) => spawn(superviseQuietly, name, saga)));
  };
}

export const rootSaga = createRootSaga(appSagas);
