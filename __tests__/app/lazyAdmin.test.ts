import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import type { Backend } from '@/backend/ports';
import { adminSaga } from '@/features/settings/adminSaga';
import { adminUsersRequested, roleChangeRequested } from '@/features/settings/adminSlice';
import { isAdminRequest, lazyAdminSaga, loadAdminSaga } from '@/app/lazyAdmin';
import { signedOut } from '@/store/userSlice';
import { createFakeBackend } from '../support/fakeBackend';

describe('lazyAdminSaga', () => {
  it("knows the admin slice's actions, and nothing else", () => {
    expect(isAdminRequest(adminUsersRequested())).toBe(true);
    expect(isAdminRequest(roleChangeRequested({ uid: 'u1', isOwner: true }))).toBe(true);
    expect(isAdminRequest(signedOut())).toBe(false);
  });

  it('loads the chunk at the first request and hands that request over', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    const started: unknown[] = [];
    const first = adminUsersRequested();
    await expectSaga(lazyAdminSaga, backend)
      .provide([
        [
          matchers.call.fn(loadAdminSaga),
          {
            *adminSaga(b: Backend, action: unknown) {
              yield started.push(b, action);
            },
          },
        ],
      ])
      .dispatch(signedOut())
      .dispatch(first)
      .run();
    expect(started).toEqual([backend, first]);
  });

  it('handles the request that loaded it, once, before it takes the next ones', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    const { effects } = await expectSaga(adminSaga, backend, adminUsersRequested())
      .provide([[matchers.call.fn(backend.admin.listUsers), []]])
      .run();
    expect(effects.call?.filter((e) => e.payload.fn === backend.admin.listUsers)).toHaveLength(1);
  });
});
