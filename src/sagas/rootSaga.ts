// The root saga spawns every feature saga: spawned sagas are detached, so one that fails is logged and the
// others keep running.
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

// The inbox saga starts before the worker registers, so a PUSH_MSG sent at once finds its listener.
export const appSagas: Saga[] = [
  appSaga,
  inboxSaga,
  startupSaga,
  chunkRecoverySaga,
  serviceWorkerSaga,
  swHealthSaga,
  updateSaga,
  authSaga,
  pushSaga,
  channelsSaga,
  offersSaga,
  invitationsSaga,
  mainSaga,
  settingsSaga,
  adminSaga,
  lazyDebugMenuSaga,
];

export function createRootSaga(sagas: Saga[]) {
  return function* rootSaga() {
    yield all(sagas.map((saga) => spawn(saga)));
  };
}

export const rootSaga = createRootSaga(appSagas);
