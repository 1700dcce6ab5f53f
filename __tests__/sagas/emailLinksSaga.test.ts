import { expectSaga } from 'redux-saga-test-plan';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { EMAIL_CHANGE_MESSAGES } from '@core/emailLinks';
import emailLinksReducer, {
  emailChangeFailed,
  emailChangeMailed,
  emailChangeRequested,
  initialState as emailLinksInitialState,
  selectEmailChange,
  emailVerificationLoaded,
  emailVerificationRequested,
  emailVerified,
  emailVerifyFailed,
  emailVerifyRequested,
  passwordResetConfirmFailed,
  passwordResetConfirmRequested,
  passwordResetConfirmed,
  passwordResetMailed,
  passwordResetRequested,
  verificationMailFailed,
  verificationMailed,
} from '@/store/emailLinksSlice';
import {
  EMAIL_CHANGE_FAILURES,
  emailLinksSaga,
  handleEmailChange,
  handleResetConfirm,
  handleResetRequested,
  handleVerificationMail,
  handleVerificationRequested,
  handleVerify,
} from '@/sagas/emailLinksSaga';
import { createFakeBackend } from '../support/fakeBackend';
import { runWithStore } from '../support/sagaStore';

const backendWith = () => createFakeBackend();
const asBackend = (fake: ReturnType<typeof createFakeBackend>) => fake as unknown as Backend;

describe('emailLinksSaga', () => {
  it("reads the account's state from the port", async () => {
    const fake = backendWith();
    fake.auth.getEmailVerification.mockResolvedValue({ email: 'a@example.com', verified: false });
    await expectSaga(handleVerificationRequested, asBackend(fake))
      .put(emailVerificationLoaded({ email: 'a@example.com', verified: false }))
      .run();
  });

  it('asks for a new link, then reads the state again; a refusal becomes words', async () => {
    const fake = backendWith();
    fake.auth.sendEmailVerification.mockResolvedValue(undefined);
    fake.auth.getEmailVerification.mockResolvedValue({ email: 'a@example.com', verified: false });
    await expectSaga(handleVerificationMail, asBackend(fake))
      .put(verificationMailed({ verified: false }))
      .run();
    fake.auth.sendEmailVerification.mockRejectedValue(
      new BackendError('RESOURCE_EXHAUSTED', 'Too many emails.'),
    );
    await expectSaga(handleVerificationMail, asBackend(fake))
      .put(verificationMailFailed({ message: 'Too many emails.' }))
      .run();
  });

  it('uses a confirmation link, and reloads the state when signed in', async () => {
    const fake = backendWith();
    fake.auth.verifyEmail.mockResolvedValue(undefined);
    await expectSaga(handleVerify, asBackend(fake), emailVerifyRequested({ token: 'tok' }))
      .withState({ user: { status: 'signedIn' } })
      .put(emailVerified())
      .put(emailVerificationRequested())
      .run();
    expect(fake.auth.verifyEmail).toHaveBeenCalledWith('tok');
    fake.auth.verifyEmail.mockRejectedValue(
      new BackendError('FAILED_PRECONDITION', 'This link has expired.'),
    );
    await expectSaga(handleVerify, asBackend(fake), emailVerifyRequested({ token: 'tok' }))
      .withState({ user: { status: 'signedOut' } })
      .put(emailVerifyFailed({ message: 'This link has expired.' }))
      .run();
  });

  it('asks for a reset and uses its link', async () => {
    const fake = backendWith();
    fake.auth.requestPasswordReset.mockResolvedValue(undefined);
    await expectSaga(
      handleResetRequested,
      asBackend(fake),
      passwordResetRequested({ email: 'a@example.com' }),
    )
      .put(passwordResetMailed())
      .run();
    expect(fake.auth.requestPasswordReset).toHaveBeenCalledWith('a@example.com');
    fake.auth.confirmPasswordReset.mockResolvedValue(undefined);
    const confirm = passwordResetConfirmRequested({ token: 'tok', password: 'new-password' });
    await expectSaga(handleResetConfirm, asBackend(fake), confirm).put(passwordResetConfirmed()).run();
    expect(fake.auth.confirmPasswordReset).toHaveBeenCalledWith('tok', 'new-password');
    fake.auth.confirmPasswordReset.mockRejectedValue(new Error('boom'));
    await expectSaga(handleResetConfirm, asBackend(fake), confirm)
      .put(passwordResetConfirmFailed({ message: 'Something went wrong. Please try again.' }))
      .run();
  });
});

describe('handleEmailChange', () => {
  const asked = emailChangeRequested({ currentPassword: 'qupm-demo', newEmail: 'new@example.com' });

  it('asks the port to mail the new address, and keeps the address the link went to', async () => {
    const fake = backendWith();
    fake.auth.changeEmail.mockResolvedValue(undefined);
    await expectSaga(handleEmailChange, asBackend(fake), asked)
      .withReducer(emailLinksReducer, emailLinksReducer(emailLinksInitialState, asked))
      .put(emailChangeMailed({ newEmail: 'new@example.com' }))
      .hasFinalState({
        ...emailLinksInitialState,
        emailChange: { status: 'done', error: null, newEmail: 'new@example.com', field: null },
      })
      .run();
    expect(fake.auth.changeEmail).toHaveBeenCalledWith('qupm-demo', 'new@example.com');
  });

  it.each([
    [
      'a wrong current password',
      new BackendError('PERMISSION_DENIED', EMAIL_CHANGE_MESSAGES.wrongPassword, 'invalid-credentials'),
      EMAIL_CHANGE_FAILURES.wrongPassword,
      'password',
    ],
    [
      'an address another account has',
      new BackendError('ALREADY_EXISTS', EMAIL_CHANGE_MESSAGES.taken, 'email-taken'),
      EMAIL_CHANGE_FAILURES.taken,
      'newEmail',
    ],
    [
      "the account's own address",
      new BackendError('INVALID_ARGUMENT', EMAIL_CHANGE_MESSAGES.same),
      EMAIL_CHANGE_MESSAGES.same,
      'newEmail',
    ],
    [
      'an address the server refuses',
      new BackendError('INVALID_ARGUMENT', 'newEmail: Invalid email address'),
      EMAIL_CHANGE_FAILURES.invalid,
      'newEmail',
    ],
    [
      'too many tries',
      new BackendError('RESOURCE_EXHAUSTED', 'rate limit exceeded, retry in 900 seconds'),
      EMAIL_CHANGE_FAILURES.tooMany,
      null,
    ],
    ['no network', new BackendError('UNAVAILABLE', 'fetch failed'), EMAIL_CHANGE_FAILURES.offline, null],
    [
      'anything else',
      new TypeError("Cannot read properties of undefined (reading 'x')"),
      EMAIL_CHANGE_FAILURES.other,
      null,
    ],
  ] as const)('words %s for people, never the backend’s own string', async (_case, error, words, field) => {
    const fake = backendWith();
    fake.auth.changeEmail.mockRejectedValue(error);
    await expectSaga(handleEmailChange, asBackend(fake), asked)
      .withReducer(emailLinksReducer, emailLinksReducer(emailLinksInitialState, asked))
      .put(emailChangeFailed({ message: words, field }))
      .hasFinalState({
        ...emailLinksInitialState,
        emailChange: { status: 'failed', error: words, newEmail: null, field },
      })
      .run();
  });

  it('handles the request that loaded the chunk, and mails once however often the button is pressed meanwhile', async () => {
    // The real middleware: expectSaga queues what a test dispatches until the saga takes it, so it cannot press
    // the button while a request is on its way.
    const fake = backendWith();
    let answer: () => void = () => undefined;
    fake.auth.changeEmail.mockImplementation(() => new Promise<void>((resolve) => (answer = resolve)));
    const { store, task, types } = runWithStore(emailLinksSaga, [asBackend(fake), [asked]]);
    store.dispatch(asked);
    store.dispatch(asked);
    answer();
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.auth.changeEmail).toHaveBeenCalledTimes(1);
    expect(types().filter((type) => type === emailChangeMailed.type)).toHaveLength(1);
    expect(selectEmailChange(store.getState()).newEmail).toBe('new@example.com');
    task.cancel();
  });

  it('takes a new request once the last one is answered', async () => {
    const fake = backendWith();
    fake.auth.changeEmail.mockResolvedValue(undefined);
    await expectSaga(emailLinksSaga, asBackend(fake))
      .dispatch(asked)
      .delay(20)
      .dispatch(emailChangeRequested({ currentPassword: 'qupm-demo', newEmail: 'other@example.com' }))
      .put(emailChangeMailed({ newEmail: 'new@example.com' }))
      .put(emailChangeMailed({ newEmail: 'other@example.com' }))
      .silentRun(100);
    expect(fake.auth.changeEmail).toHaveBeenCalledTimes(2);
  });
});
