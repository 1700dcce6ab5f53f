// The sessions saga against the fake backend's sessions port.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import {
  PASSWORD_MESSAGES,
  handlePasswordChange,
  handleSessionSignOut,
  handleSessionsRequested,
  sessionsSaga,
} from '@/features/settings/sessionsSaga';
import sessions, {
  passwordChangeRequested,
  sessionSignOutRequested,
  sessionsLoaded,
  sessionsRequested,
} from '@/features/settings/sessionsSlice';
import type { SignedInSession } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ sessions });
type State = ReturnType<typeof reducer>;
const backend = createFakeBackend() as unknown as Backend;
const mine: SignedInSession = {
  id: 'a',
  browser: 'Chrome',
  platform: 'Linux',
  createdAt: 1,
  lastUsedAt: 2,
  current: true,
};
const other: SignedInSession = { ...mine, id: 'b', current: false, browser: 'Safari', platform: 'iOS' };
const withList = reducer(undefined, sessionsLoaded({ items: [mine, other], listsEverySession: true }));

describe('sessions saga', () => {
  it('lists the sessions and whether the backend knows them all', async () => {
    const { storeState } = await expectSaga(handleSessionsRequested, backend)
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.sessions.listSessions), [mine, other]]])
      .run();
    expect((storeState as State).sessions).toMatchObject({
      status: 'loaded',
      items: [mine, other],
      listsEverySession: true,
    });
  });

  it('removes a session that had already ended elsewhere, as if it had just been signed out', async () => {
    const { storeState } = await expectSaga(
      handleSessionSignOut,
      backend,
      sessionSignOutRequested({ id: 'b' }),
    )
      .withReducer(reducer, reducer(withList, sessionSignOutRequested({ id: 'b' })))
      .provide([
        [
          matchers.call.fn(backend.sessions.signOutSession),
          throwError(new BackendError('NOT_FOUND', 'gone')),
        ],
      ])
      .run();
    expect((storeState as State).sessions.items.map((s) => s.id)).toEqual(['a']);
    expect((storeState as State).sessions.error).toBeNull();
  });

  it('keeps the row and shows the reason when the sign-out fails otherwise', async () => {
    const { storeState } = await expectSaga(
      handleSessionSignOut,
      backend,
      sessionSignOutRequested({ id: 'b' }),
    )
      .withReducer(reducer, withList)
      .provide([
        [
          matchers.call.fn(backend.sessions.signOutSession),
          throwError(new BackendError('UNAVAILABLE', "Can't reach QuPM.")),
        ],
      ])
      .run();
    expect((storeState as State).sessions).toMatchObject({ error: "Can't reach QuPM.", ending: [] });
    expect((storeState as State).sessions.items).toHaveLength(2);
  });

  it('says plainly that the current password is wrong', async () => {
    const action = passwordChangeRequested({ currentPassword: 'nope', newPassword: 'new-password-1' });
    const { storeState } = await expectSaga(handlePasswordChange, backend, action)
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.sessions.changePassword),
          throwError(
            new BackendError('PERMISSION_DENIED', 'Your current password is not right.', 'wrong-password'),
          ),
        ],
      ])
      .run();
    expect((storeState as State).sessions.password).toEqual({
      status: 'failed',
      error: PASSWORD_MESSAGES.wrongCurrent,
    });
  });

  it('reads the list again after the password changed (the other sessions ended)', async () => {
    const action = passwordChangeRequested({
      currentPassword: 'old-password-1',
      newPassword: 'new-password-1',
    });
    await expectSaga(handlePasswordChange, backend, action)
      .withReducer(reducer, withList)
      .provide([[matchers.call.fn(backend.sessions.changePassword), undefined]])
      .call([backend.sessions, backend.sessions.changePassword], 'old-password-1', 'new-password-1')
      .put(sessionsRequested())
      .run();
  });
});

describe('sessions saga, started after the screen asked', () => {
  it('answers a list the screen asked for before the saga was running', async () => {
    const { storeState } = await expectSaga(sessionsSaga, backend)
      .withReducer(reducer, reducer(undefined, sessionsRequested()))
      .provide([[matchers.call.fn(backend.sessions.listSessions), [mine]]])
      .silentRun(20);
    expect((storeState as State).sessions).toMatchObject({ status: 'loaded', items: [mine] });
  });
});
