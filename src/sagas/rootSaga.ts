// The root saga spawns every feature saga: spawned sagas are detached, so one that fails is logged and the
// others keep running.
import { all, spawn } from 'redux-saga/effects';
import type { Saga } from 'redux-saga';
import { settingsSaga } from '@/features/settings/settingsSaga';
import { adminSaga } from '@/features/settings/adminSaga';
import { appSaga } from './appSaga';
import { authSaga } from './authSaga';
import { mainSaga } from '@/features/main/mainSaga';
import { channelsSaga } from './channelsSaga';
import { invitationsSaga } from './invitationsSaga';
import { offersSaga } from './offersSaga';
import { pushSaga } from './push/pushSaga';
import { serviceWorkerSaga } from './serviceWorkerSaga';

export const appSagas: Saga[] = [
  appSaga,
  serviceWorkerSaga,
  authSaga,
  pushSaga,
  channelsSaga,
  offersSaga,
  invitationsSaga,
  mainSaga,
  settingsSaga,
  adminSaga,
];

export function createRootSaga(sagas: Saga[]) {
  return function* rootSaga() {
    yield all(sagas.map((saga) => spawn(saga)));
  };
}

export const rootSaga = createRootSaga(appSagas);
