// Loads the saga of the mailed links (issue #15: confirm an address, reset a password) in its own chunk the first
// time a screen dispatches to its slice, so the shell carries neither it nor its slice. The request that loaded it is handed
// over and handled first, so nothing is lost while the chunk loads.
import { call, take } from 'redux-saga/effects';
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';

/** The slice's name (src/store/emailLinksSlice.ts EMAIL_LINKS_DOMAIN), written here so the shell needs no more. */
const DOMAIN_PREFIX = 'emailLinks/';

export function loadEmailLinksSaga() {
  return import(/* webpackChunkName: "route-links" */ '@/sagas/emailLinksSaga');
}

/** Any action of the slice: the first one a screen dispatches is always a request. */
export const isEmailLinksRequest = (action: Action): boolean => action.type.startsWith(DOMAIN_PREFIX);

export function* lazyEmailLinksSaga(backend: Backend) {
  const first: UnknownAction = yield take(isEmailLinksRequest);
  const saga: Awaited<ReturnType<typeof loadEmailLinksSaga>> = yield call(loadEmailLinksSaga);
  yield call(saga.emailLinksSaga, backend, first);
}
