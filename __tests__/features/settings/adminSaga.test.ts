import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { adminSaga, handleRoleChange, handleUsersRequested } from '@/features/settings/adminSaga';
import admin, {
  adminUsersLoaded,
  adminUsersRequested,
  roleChangeRequested,
} from '@/features/settings/adminSlice';
import type { AdminUser } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ admin });
type State = ReturnType<typeof reducer>;
const backend = createFakeBackend() as unknown as Backend;
const member: AdminUser = {
  uid: 'u1',
  email: 'm@x.co',
  name: 'Morgan',
  isOwner: false,
  isAdmin: false,
  createdAt: 1,
};

describe('admin section', () => {
  it('lists the users', async () => {
    const { storeState } = await expectSaga(handleUsersRequested, backend)
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.admin.listUsers), [member]]])
      .run();
    expect((storeState as State).admin.users).toEqual({ status: 'loaded', items: [member], error: null });
  });

  it('makes a user a consultant and shows the answer', async () => {
    const state = reducer(undefined, adminUsersLoaded({ items: [member] }));
    const { storeState } = await expectSaga(
      handleRoleChange,
      backend,
      roleChangeRequested({ uid: 'u1', isOwner: true }),
    )
      .withReducer(reducer, reducer(state, roleChangeRequested({ uid: 'u1', isOwner: true })))
      .provide([[matchers.call.fn(backend.admin.setConsultant), { ...member, isOwner: true }]])
      .call([backend.admin, backend.admin.setConsultant], 'u1', true)
      .run();
    expect((storeState as State).admin.users.items[0]?.isOwner).toBe(true);
    expect((storeState as State).admin.changing).toEqual([]);
  });

  it('says why a role change was refused', async () => {
    const { storeState } = await expectSaga(
      handleRoleChange,
      backend,
      roleChangeRequested({ uid: 'u1', isOwner: true }),
    )
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.admin.setConsultant),
          throwError(new BackendError('PERMISSION_DENIED', 'Admins only.')),
        ],
      ])
      .run();
    expect((storeState as State).admin.roleError).toBe('Admins only.');
  });
});

describe('adminSaga', () => {
  it('handles the request that loaded its chunk, once, before it takes the next ones', async () => {
    const { effects } = await expectSaga(adminSaga, backend, [adminUsersRequested()])
      .provide([[matchers.call.fn(backend.admin.listUsers), []]])
      .run();
    expect(effects.call?.filter((e) => e.payload.fn === backend.admin.listUsers)).toHaveLength(1);
  });
});
