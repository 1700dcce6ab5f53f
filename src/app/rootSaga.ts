// The root saga. The sagas that need no backend start at once; then the backend adapter is loaded, once (its
// chunk loads beside the first screen's, never in the shell), and every saga that talks to the backend starts
// with it as its first argument: no saga loads it by itself. A backend that cannot load starts the auth saga's
// stand-in instead, so every request still gets an answer. Every saga is spawned and supervised: spawned sagas
// are detached, so one that fails never stops the others, and the supervisor starts it again (reported, with
// backoff) so it never stays stopped.
import { all, call, put, spawn } from 'redux-saga/effects';
import { isChunkLoadError } from '@/platform/chunks';
import { chunkLoadFailed } from '@/store/versionSlice';
import type { Saga } from 'redux-saga';
import { loadBackend } from '@/backend';
import type { Backend } from '@/backend/ports';
import { settingsSaga } from '@/features/settings/settingsSaga';
import { appSaga } from '@/sagas/appSaga';
import {
  lazyAdminSaga,
  lazyAttentionSaga,
  lazyConsultantToolsSaga,
  lazyConversationPagesSaga,
  lazyConversationSaga,
  lazyDebugMenuSaga,
  lazyEmailLinksSaga,
  lazyLastKnownSaga,
  lazyLeavingSaga,
  lazyMembersSaga,
  lazyOffersSaga,
} from './lazySagas';
import { authSaga, authUnavailableSaga } from '@/sagas/authSaga';
import { chunkRecoverySaga } from '@/sagas/chunkRecoverySaga';
import { inboxSaga, pendingSaga } from '@/sagas/inboxSaga';
import { channelsSaga } from '@/sagas/channelsSaga';
import { invitationsSaga } from '@/sagas/invitationsSaga';
import { pushDeviceSaga, pushSaga } from '@/sagas/push/pushSaga';
import { serviceWorkerSaga } from '@/sagas/serviceWorkerSaga';
import { startupSaga } from '@/sagas/startupSaga';
import { swHealthSaga } from '@/sagas/swHealthSaga';
import { updateSaga } from '@/sagas/updateSaga';
import { superviseQuietly } from '@/sagas/supervise';

/** A saga that talks to the backend: the root hands it the loaded backend as its first argument. */
export type BackendSaga = Saga<[Backend]>;

// The inbox saga starts before the worker registers, so a PUSH_MSG sent at once finds its listener.
export const appSagas: Record<string, Saga> = {
  app: appSaga,
  inbox: inboxSaga,
  startup: startupSaga,
  'chunk recovery': chunkRecoverySaga,
  'service worker': serviceWorkerSaga,
  'service worker health': swHealthSaga,
  update: updateSaga,
  'push device': pushDeviceSaga,
  'debug menu': lazyDebugMenuSaga,
  'last known state': lazyLastKnownSaga,
};

// In this order: pending notifications are cleared on user/accountLoaded, which the auth saga puts.
export const backendSagas: Record<string, BackendSaga> = {
  pending: pendingSaga,
  auth: authSaga,
  push: pushSaga,
  channels: channelsSaga,
  conversation: lazyConversationSaga,
  attention: lazyAttentionSaga,
  offers: lazyOffersSaga,
  invitations: invitationsSaga,
  'conversation pages': lazyConversationPagesSaga,
  members: lazyMembersSaga,
  'consultant tools': lazyConsultantToolsSaga,
  settings: settingsSaga,
  admin: lazyAdminSaga,
  leaving: lazyLeavingSaga,
  mail: lazyEmailLinksSaga,
};

export interface WithBackend {
  sagas: Record<string, BackendSaga>;
  /** Started instead of `sagas` when the backend cannot load. */
  unavailable: Saga;
  load?: () => Promise<Backend>;
}

export function createRootSaga(sagas: Record<string, Saga>, withBackend?: WithBackend) {
  return function* rootSaga() {
    yield all(Object.entries(sagas).map(([name, saga]) => spawn(superviseQuietly, name, saga)));
    if (!withBackend) return;
    let backend: Backend;
    try {
      backend = yield call(withBackend.load ?? loadBackend);
    } catch (error) {
      console.error('The backend could not be loaded', error);
      // Its chunk could not be fetched (spec §4): the recovery reloads once, then shows the error screen.
      if (isChunkLoadError(error)) yield put(chunkLoadFailed());
      yield spawn(superviseQuietly, 'auth', withBackend.unavailable);
      return;
    }
    yield all(
      Object.entries(withBackend.sagas).map(([name, saga]) => spawn(superviseQuietly, name, saga, backend)),
    );
  };
}

export const rootSaga = createRootSaga(appSagas, { sagas: backendSagas, unavailable: authUnavailableSaga });
