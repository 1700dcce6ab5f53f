// Loads the saga of Settings → Admin in its own chunk the first time the section dispatches to its slice, so the
// shell carries neither it nor its slice (only admins ever open the section). The request that loaded it is handed
// over and handled first, so nothing is lost while the chunk loads.
import { call, take } from 'redux-saga/effects';
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';

/** The slice's name (src/features/settings/adminSlice.ts), written here so the shell needs no more. */
const DOMAIN_PREFIX = 'admin/';

export function loadAdminSaga() {
  return import(/* webpackChunkName: "route-settings" */ '@/features/settings/adminSaga');
}

/** Any action of the admin slice: the first one the section dispatches is always a request. */
export const isAdminRequest = (action: Action): boolean => action.type.startsWith(DOMAIN_PREFIX);

export function* lazyAdminSaga(backend: Backend) {
  const first: UnknownAction = yield take(isAdminRequest);
  const saga: Awaited<ReturnType<typeof loadAdminSaga>> = yield call(loadAdminSaga);
  yield call(saga.adminSaga, backend, first);
}
