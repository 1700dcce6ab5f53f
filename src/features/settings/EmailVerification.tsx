// Settings → Profile: whether the account's email address is confirmed, asked of the backend
// each time it is shown, and a new confirmation link on request (rate-limited by the backend).
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  emailVerificationRequested,
  selectEmailVerification,
  selectVerificationResend,
  verificationMailRequested,
} from '@/store/emailLinksSlice';
import { EMAIL_LINK_MESSAGES } from '@core/emailLinks';

export function EmailVerification() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectEmailVerification);
  const resend = useAppSelector(selectVerificationResend);

  useEffect(() => {
    dispatch(emailVerificationRequested());
  }, [dispatch]);

  let body: React.ReactNode;
  if (state.status === 'failed') {
    body = (
      <p className="form-error" role="alert">
        {state.error}
      </p>
    );
  } else if (state.status !== 'loaded') {
    body = <p className="muted">Checking your email address…</p>;
  } else if (state.verified) {
    body = (
      <p>
        <strong>{state.email}</strong> is confirmed.
      </p>
    );
  } else {
    body = (
      <>
        <p>
          <strong>{state.email}</strong> is not confirmed yet. Invitations sent to this address can be
          accepted once you open the link we emailed you.
        </p>
        {resend.status === 'done' ? (
          <p className="form-success" role="status">
            {EMAIL_LINK_MESSAGES.verificationSent}
          </p>
        ) : (
          <button
            type="button"
            className="button"
            onClick={() => dispatch(verificationMailRequested())}
            disabled={resend.status === 'working'}
          >
            {resend.status === 'working' ? 'Sending…' : 'Send a new confirmation link'}
          </button>
        )}
        {resend.status === 'failed' && (
          <p className="form-error" role="alert">
            {resend.error}
          </p>
        )}
      </>
    );
  }
  return (
    <section className="settings-form card email-verification" aria-labelledby="email-verification-title">
      <h2 id="email-verification-title">Email address</h2>
      {body}
    </section>
  );
}
