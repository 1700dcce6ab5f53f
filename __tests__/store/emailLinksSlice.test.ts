import { findNonSerializableValue } from '@reduxjs/toolkit';
import reducer, {
  emailChangeFailed,
  emailChangeMailed,
  emailChangeRequested,
  emailVerificationLoadFailed,
  emailVerificationLoaded,
  emailVerificationRequested,
  emailVerified,
  emailVerifyFailed,
  emailVerifyRequested,
  initialState,
  passwordResetConfirmFailed,
  passwordResetConfirmRequested,
  passwordResetConfirmed,
  passwordResetFailed,
  passwordResetFormShown,
  passwordResetMailed,
  passwordResetRequested,
  selectEmailChange,
  selectEmailVerification,
  selectEmailVerify,
  selectPasswordResetConfirm,
  selectPasswordResetRequest,
  selectVerificationResend,
  verificationMailFailed,
  verificationMailRequested,
  verificationMailed,
} from '@/store/emailLinksSlice';
import type { EmailLinksState } from '@/store/emailLinksSlice';
import { signedOut } from '@/store/userSlice';

const at = (state: EmailLinksState) => ({ emailLinks: state });
const run = (...actions: Parameters<typeof reducer>[1][]): EmailLinksState =>
  actions.reduce<EmailLinksState>((state, action) => reducer(state, action), initialState);

describe('emailLinksSlice', () => {
  it("loads the account's confirmation state, and keeps a failure as words", () => {
    const loading = run(emailVerificationRequested());
    expect(selectEmailVerification(at(loading)).status).toBe('loading');
    const loaded = reducer(loading, emailVerificationLoaded({ email: 'a@example.com', verified: false }));
    expect(selectEmailVerification(at(loaded))).toEqual({
      status: 'loaded',
      email: 'a@example.com',
      verified: false,
      error: null,
    });
    const failed = reducer(loading, emailVerificationLoadFailed({ message: 'Offline.' }));
    expect(selectEmailVerification(at(failed))).toMatchObject({ status: 'failed', error: 'Offline.' });
  });

  it('follows a new link asked for, and what the backend then says of the address', () => {
    const loaded = run(emailVerificationLoaded({ email: 'a@example.com', verified: false }));
    expect(selectVerificationResend(at(reducer(loaded, verificationMailRequested()))).status).toBe('working');
    const mailed = reducer(loaded, verificationMailed({ verified: true }));
    expect(selectVerificationResend(at(mailed)).status).toBe('done');
    expect(selectEmailVerification(at(mailed)).verified).toBe(true);
    expect(
      selectVerificationResend(at(reducer(loaded, verificationMailFailed({ message: 'Too many.' })))),
    ).toEqual({
      status: 'failed',
      error: 'Too many.',
    });
  });

  it('marks a loaded state confirmed when the link is used on this device', () => {
    const loaded = run(
      emailVerificationLoaded({ email: 'a@example.com', verified: false }),
      emailVerifyRequested({ token: 't' }),
    );
    expect(selectEmailVerify(at(loaded)).status).toBe('working');
    const done = reducer(loaded, emailVerified());
    expect(selectEmailVerify(at(done)).status).toBe('done');
    expect(selectEmailVerification(at(done)).verified).toBe(true);
    // Signed out (another device): nothing loaded is invented.
    expect(selectEmailVerification(at(run(emailVerified()))).status).toBe('idle');
    expect(selectEmailVerify(at(run(emailVerifyFailed({ message: 'Expired.' }))))).toEqual({
      status: 'failed',
      error: 'Expired.',
    });
  });

  it('follows a reset asked for, and starts afresh when the form is shown again', () => {
    const asked = run(passwordResetRequested({ email: 'a@example.com' }));
    expect(selectPasswordResetRequest(at(asked)).status).toBe('working');
    expect(selectPasswordResetRequest(at(reducer(asked, passwordResetMailed()))).status).toBe('done');
    expect(selectPasswordResetRequest(at(reducer(asked, passwordResetFailed({ message: 'x' })))).error).toBe(
      'x',
    );
    expect(
      selectPasswordResetRequest(
        at(reducer(reducer(asked, passwordResetMailed()), passwordResetFormShown())),
      ),
    ).toEqual({ status: 'idle', error: null });
  });

  it('keeps a used reset link through the sign-out it causes, and forgets the account state', () => {
    const confirmed = run(
      emailVerificationLoaded({ email: 'a@example.com', verified: true }),
      passwordResetConfirmRequested({ token: 't', password: 'new-password' }),
      passwordResetConfirmed(),
      signedOut(),
    );
    expect(selectPasswordResetConfirm(at(confirmed)).status).toBe('done');
    expect(selectEmailVerification(at(confirmed)).status).toBe('idle');
    expect(selectPasswordResetConfirm(at(run(passwordResetConfirmFailed({ message: 'Used.' }))))).toEqual({
      status: 'failed',
      error: 'Used.',
    });
  });

  it('keeps a change of email as the address the link went to, or a refusal in words and its field', () => {
    const asked = run(
      emailChangeRequested({ currentPassword: 'secret-password', newEmail: 'b@example.com' }),
    );
    expect(selectEmailChange(at(asked))).toEqual({
      status: 'working',
      error: null,
      newEmail: null,
      field: null,
    });
    // The password is never kept.
    expect(JSON.stringify(asked)).not.toContain('secret-password');
    expect(selectEmailChange(at(reducer(asked, emailChangeMailed({ newEmail: 'b@example.com' }))))).toEqual({
      status: 'done',
      error: null,
      newEmail: 'b@example.com',
      field: null,
    });
    const refused = reducer(asked, emailChangeFailed({ message: 'Not your password.', field: 'password' }));
    expect(selectEmailChange(at(refused))).toEqual({
      status: 'failed',
      error: 'Not your password.',
      newEmail: null,
      field: 'password',
    });
    expect(selectEmailChange(at(reducer(refused, signedOut())))).toEqual(initialState.emailChange);
  });

  it('stays serializable', () => {
    const state = run(
      emailVerificationLoaded({ email: 'a@example.com', verified: false }),
      passwordResetMailed(),
      emailChangeRequested({ currentPassword: 'p', newEmail: 'b@example.com' }),
      emailChangeMailed({ newEmail: 'b@example.com' }),
    );
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
