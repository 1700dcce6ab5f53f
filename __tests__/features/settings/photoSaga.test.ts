import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import user, { accountLoaded, buildUserState, signedIn } from '@/store/userSlice';
import photo, {
  photoRemoveRequested,
  photoRequested,
  photoSaveRequested,
} from '@/features/settings/photoSlice';
import {
  handlePhotoRemove,
  handlePhotoRequested,
  handlePhotoSave,
  photoSaga,
} from '@/features/settings/photoSaga';
import { holdPicture, takePicture } from '@/features/settings/pendingPhoto';
import { PHOTO_MESSAGES } from '@core/photos';
import type { UserDoc } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ user, photo });
const ada = { uid: 'u1', email: 'ada@example.com', displayName: null };
const URL_1 = '/api/photos/AbCdEfGhIjKlMnOpQrSt';
const doc = (photoURL?: string): UserDoc => ({
  uid: 'u1',
  email: 'ada@example.com',
  isOwner: false,
  nickname: 'Ada',
  notificationSettings: { enabled: false, delivery: { channels: [] } },
  credits: 0,
  passCount: 0,
  effectiveConId: '',
  ...(photoURL ? { photoURL } : {}),
});
const signedInState = () =>
  reducer(
    reducer(undefined, signedIn({ authUser: ada })),
    accountLoaded(buildUserState(ada, doc(), { isAdmin: false })),
  );
const backend = createFakeBackend() as unknown as Backend;

describe('handlePhotoSave', () => {
  it('sends the held picture as the person, and shows the face the backend answered', async () => {
    const picture = new Blob(['webp'], { type: 'image/webp' });
    const pictureId = holdPicture(picture);
    const { storeState } = await expectSaga(handlePhotoSave, backend, photoSaveRequested({ pictureId }))
      .withReducer(reducer, signedInState())
      .provide([[matchers.call([backend.users, backend.users.setPhoto], 'u1', picture), doc(URL_1)]])
      .run();
    expect(storeState.photo).toEqual({ status: 'saved', url: URL_1, error: null });
    // Held once: the upload took it.
    expect(takePicture(pictureId)).toBeUndefined();
  });

  it("shows the backend's words when it refuses the picture", async () => {
    const pictureId = holdPicture(new Blob(['x']));
    const { storeState } = await expectSaga(handlePhotoSave, backend, photoSaveRequested({ pictureId }))
      .withReducer(reducer, signedInState())
      .provide([
        [
          matchers.call.fn(backend.users.setPhoto),
          throwError(new BackendError('INVALID_ARGUMENT', PHOTO_MESSAGES.notImage)),
        ],
      ])
      .run();
    expect(storeState.photo).toEqual({ status: 'failed', url: null, error: PHOTO_MESSAGES.notImage });
  });

  it('asks for the picture again when it is no longer held (nothing is sent)', async () => {
    const { storeState } = await expectSaga(
      handlePhotoSave,
      backend,
      photoSaveRequested({ pictureId: 'gone' }),
    )
      .withReducer(reducer, signedInState())
      .not.call.fn(backend.users.setPhoto)
      .run();
    expect(storeState.photo.status).toBe('failed');
  });
});

describe('handlePhotoRemove', () => {
  it('removes the face and shows initials', async () => {
    const { storeState } = await expectSaga(handlePhotoRemove, backend)
      .withReducer(reducer, {
        ...signedInState(),
        photo: { status: 'removing' as const, url: URL_1, error: null },
      })
      .provide([[matchers.call([backend.users, backend.users.removePhoto], 'u1'), doc()]])
      .dispatch(photoRemoveRequested())
      .run();
    expect(storeState.photo).toEqual({ status: 'removed', url: null, error: null });
  });
});

describe('handlePhotoRequested', () => {
  it("reads the person's face from their document", async () => {
    const { storeState } = await expectSaga(handlePhotoRequested, backend)
      .withReducer(reducer, signedInState())
      .provide([[matchers.call([backend.users, backend.users.getUser], 'u1'), doc(URL_1)]])
      .run();
    expect(storeState.photo.url).toBe(URL_1);
  });
});

describe('photoSaga', () => {
  it('answers a request the screen made before the chunk loaded', async () => {
    const early = reducer(signedInState(), photoRequested());
    const { storeState } = await expectSaga(photoSaga, backend)
      .withReducer(reducer, early)
      .provide([[matchers.call([backend.users, backend.users.getUser], 'u1'), doc(URL_1)]])
      .silentRun(50);
    expect(storeState.photo).toEqual({ status: 'idle', url: URL_1, error: null });
  });

  it('asks nothing at start when the screen has not asked', async () => {
    await expectSaga(photoSaga, backend)
      .withReducer(reducer, signedInState())
      .not.call.fn(backend.users.getUser)
      .silentRun(50);
  });
});
