// Settings → Your data against the users port: the export saved as a file by the browser, and
// the deletion of the account (the adapter signs this device out once it is gone). Loaded in its own chunk once
// a session starts (src/app/lazySagas.ts).
import { call, fork, put, select, takeLeading } from 'redux-saga/effects';
import { accountExportFileName } from '@core/leaving';
import type { AccountExport } from '@core/leaving';
import type { Backend } from '@/backend/ports';
import { toFailure } from '@/backend/errors';
import { saveTextFile } from '@/platform/download';
import { selectUid } from '@/store/userSlice';
import {
  accountDeleted,
  accountDeletionFailed,
  accountDeletionRequested,
  dataExported,
  dataExportFailed,
  dataExportRequested,
} from './leavingSlice';
import { photoSaga } from './photoSaga';

const SIGN_IN_FIRST = 'Sign in to manage your data.';

export function* handleDataExport(backend: Backend) {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(dataExportFailed({ message: SIGN_IN_FIRST }));
    return;
  }
  try {
    const data: AccountExport = yield call([backend.users, backend.users.exportMyData], uid);
    const fileName = accountExportFileName(data.exportedAt);
    yield call(saveTextFile, fileName, `${JSON.stringify(data, null, 2)}\n`);
    yield put(dataExported({ fileName }));
  } catch (error) {
    yield put(dataExportFailed({ message: toFailure(error).message }));
  }
}

export function* handleAccountDeletion(
  backend: Backend,
  action: ReturnType<typeof accountDeletionRequested>,
) {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(accountDeletionFailed({ message: SIGN_IN_FIRST }));
    return;
  }
  try {
    yield call([backend.users, backend.users.deleteMyAccount], uid, action.payload.password);
    yield put(accountDeleted());
  } catch (error) {
    yield put(accountDeletionFailed({ message: toFailure(error).message }));
  }
}

export function* leavingSaga(backend: Backend) {
  // Settings → Profile's picture rides in this chunk, started with it: the shell has no room for another loader.
  yield fork(photoSaga, backend);
  yield takeLeading(dataExportRequested.type, handleDataExport, backend);
  yield takeLeading(accountDeletionRequested.type, handleAccountDeletion, backend);
}
