import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import type { Backend } from '@/backend/ports';
import { emailVerifyRequested, passwordResetMailed } from '@/store/emailLinksSlice';
import { isEmailLinksRequest, lazyEmailLinksSaga, loadEmailLinksSaga } from '@/app/lazyEmailLinks';
import { signedOut } from '@/store/userSlice';
import { createFakeBackend } from '../support/fakeBackend';

describe('lazyEmailLinksSaga', () => {
  it("knows the email links slice's actions, and nothing else", () => {
    expect(isEmailLinksRequest(emailVerifyRequested({ token: 't' }))).toBe(true);
    expect(isEmailLinksRequest(passwordResetMailed())).toBe(true);
    expect(isEmailLinksRequest(signedOut())).toBe(false);
  });

  it('loads the chunk at the first request and hands that request over', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    const started: unknown[] = [];
    const first = emailVerifyRequested({ token: 'tok' });
    await expectSaga(lazyEmailLinksSaga, backend)
      .provide([
        [
          matchers.call.fn(loadEmailLinksSaga),
          {
            *emailLinksSaga(b: Backend, action: unknown) {
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
});
