// Settings → Your data against the users port (mocked at the port): the export is saved under
// its dated name, a deletion is reported once the port has deleted (and signed out), a refusal is shown in the
// port's words.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { handleAccountDeletion, handleDataExport } from '@/features/settings/leavingSaga';
import leaving, { accountDeletionRequested } from '@/features/settings/leavingSlice';
import { saveTextFile } from '@/platform/download';
import user, { signedIn } from '@/store/userSlice';
import { buildAccountExport } from '@core/leaving';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ leaving, user });
type State = ReturnType<typeof reducer>;
const backend = createFakeBackend() as unknown as Backend;
const signedInState = reducer(
  undefined,
  signedIn({ authUser: { uid: 'u1', email: 'm@x.co', displayName: null } }),
);
const exported = buildAccountExport(
  {
    account: {
      uid: 'u1',
      email: 'm@x.co',
      isOwner: false,
      notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
      credits: 0,
      passCount: 0,
      effectiveConId: '',
    },
    mutes: {},
    messages: [],
    offersReceived: [],
    offersIssued: [],
    invitationsSent: [],
    invitationsReceived: [],
    devices: [],
  },
  Date.UTC(2026, 10, 23, 9),
);

describe('handleDataExport', () => {
  it('saves the export as qupm-data-<day>.json and says so', async () => {
    const { storeState } = await expectSaga(handleDataExport, backend)
      .withReducer(reducer, signedInState)
      .provide([
        [matchers.call.fn(backend.users.exportMyData), exported],
        [matchers.call.fn(saveTextFile), undefined],
      ])
      .call([backend.users, backend.users.exportMyData], 'u1')
      .call(saveTextFile, 'qupm-data-2026-11-23.json', `${JSON.stringify(exported, null, 2)}\n`)
      .run();
    expect((storeState as State).leaving.export).toEqual({
      status: 'saved',
      fileName: 'qupm-data-2026-11-23.json',
      error: null,
    });
  });

  it("shows the port's refusal and saves nothing", async () => {
    const { storeState } = await expectSaga(handleDataExport, backend)
      .withReducer(reducer, signedInState)
      .provide([
        [
          matchers.call.fn(backend.users.exportMyData),
          throwError(new BackendError('UNAVAILABLE', 'Offline.')),
        ],
      ])
      .not.call.fn(saveTextFile)
      .run();
    expect((storeState as State).leaving.export.error).toBe('Offline.');
  });
});

describe('handleAccountDeletion', () => {
  it('deletes with the password and reports the account deleted', async () => {
    const { storeState } = await expectSaga(
      handleAccountDeletion,
      backend,
      accountDeletionRequested({ password: 'pw' }),
    )
      .withReducer(reducer, signedInState)
      .provide([[matchers.call.fn(backend.users.deleteMyAccount), undefined]])
      .call([backend.users, backend.users.deleteMyAccount], 'u1', 'pw')
      .run();
    expect((storeState as State).leaving.deletion.status).toBe('deleted');
  });

  it('says why a deletion was refused (a wrong password, channels still owned)', async () => {
    const refusal = new BackendError('FAILED_PRECONDITION', 'You still own a channel (“Studio”).');
    const { storeState } = await expectSaga(
      handleAccountDeletion,
      backend,
      accountDeletionRequested({ password: 'pw' }),
    )
      .withReducer(reducer, signedInState)
      .provide([[matchers.call.fn(backend.users.deleteMyAccount), throwError(refusal)]])
      .run();
    expect((storeState as State).leaving.deletion).toEqual({ status: 'failed', error: refusal.message });
  });
});
