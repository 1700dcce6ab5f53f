// Settings → Profile's picture against the users port: read the face there is, set a new one (the picture the
// screen cropped and scaled), remove it. The saved document flows into the user slice (docChanged), and from there
// into this screen's slice. Started with the settings sagas that load on demand (leavingSaga.ts).
import { call, fork, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import type { UserDoc } from '@core/model';
import { toFailure } from '@/backend/errors';
import { docChanged, selectUid } from '@/store/userSlice';
import { takePicture } from './pendingPhoto';
import {
  photoFailed,
  photoLoaded,
  photoRemoved,
  photoRemoveRequested,
  photoRequested,
  photoSaved,
  photoSaveRequested,
  selectPhoto,
} from './photoSlice';
import type { PhotoState } from './photoSlice';

const SIGN_IN_FIRST = 'Sign in to change your picture.';
const CHOOSE_AGAIN = 'Choose the picture again.';

export function* handlePhotoRequested(backend: Backend) {
  const uid: string | null = yield select(selectUid);
  if (!uid) return;
  try {
    const doc: UserDoc | null = yield call([backend.users, backend.users.getUser], uid);
    yield put(photoLoaded({ url: doc?.photoURL ?? null }));
  } catch {
    // The screen shows initials meanwhile; the live document corrects it.
    yield put(photoLoaded({ url: null }));
  }
}

export function* handlePhotoSave(backend: Backend, action: ReturnType<typeof photoSaveRequested>) {
  const uid: string | null = yield select(selectUid);
  const picture = takePicture(action.payload.pictureId);
  if (!uid || !picture) {
    yield put(photoFailed({ message: uid ? CHOOSE_AGAIN : SIGN_IN_FIRST }));
    return;
  }
  try {
    const doc: UserDoc = yield call([backend.users, backend.users.setPhoto], uid, picture);
    yield put(docChanged({ doc }));
    yield put(photoSaved({ url: doc.photoURL ?? null }));
  } catch (error) {
    yield put(photoFailed({ message: toFailure(error).message }));
  }
}

export function* handlePhotoRemove(backend: Backend) {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(photoFailed({ message: SIGN_IN_FIRST }));
    return;
  }
  try {
    const doc: UserDoc = yield call([backend.users, backend.users.removePhoto], uid);
    yield put(docChanged({ doc }));
    yield put(photoRemoved());
  } catch (error) {
    yield put(photoFailed({ message: toFailure(error).message }));
  }
}

export function* photoSaga(backend: Backend) {
  // The screen may have asked before this chunk loaded (a reload on Settings → Profile): answer that request now.
  const photo: PhotoState = yield select(selectPhoto);
  if (photo.status === 'loading') yield fork(handlePhotoRequested, backend);
  yield takeLatest(photoRequested.type, handlePhotoRequested, backend);
  yield takeLatest(photoSaveRequested.type, handlePhotoSave, backend);
  yield takeLeading(photoRemoveRequested.type, handlePhotoRemove, backend);
}
