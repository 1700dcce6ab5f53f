// `/reset-password` without a token, opened from the sign-in form's "Forgot your password?": the
// person gives
// their address and QuPM mails a link to choose a new password. The answer is the same whether an account has
// that address or not. "Back to sign in" returns to the screen the form was on (home, an invitation).
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FormEvent } from 'react';
import { isEmail } from '@core/email';
import { EMAIL_LINK_MESSAGES } from '@core/emailLinks';
import { LIMITS } from '@core/limits';
import '@/ui/auth-form.css';
import '@/ui/email-link.css';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  passwordResetFormShown,
  passwordResetRequested,
  selectPasswordResetRequest,
} from '@/store/emailLinksSlice';

/** The address the sign-in form hands over (typed so far), if any. */
function handedOver(state: unknown): string {
  const { email } = (state ?? {}) as { email?: unknown };
  return typeof email === 'string' ? email.trim() : '';
}

export function ForgotPassword() {
  const location = useLocation();
  const navigate = useNavigate();
  const initialEmail = handedOver(location.state);
  // Back to the screen whose sign-in form opened this one (home, an invitation); home when opened directly.
  const back = (): void => {
    if (location.key !== 'default') void navigate(-1);
    else void navigate('/');
  };
  const dispatch = useAppDispatch();
  const request = useAppSelector(selectPasswordResetRequest);
  const [email, setEmail] = useState(initialEmail);
  const [localError, setLocalError] = useState<string | null>(null);
  const ids = { email: useId(), error: useId() };
  const error = localError ?? (request.status === 'failed' ? request.error : null);

  useEffect(() => {
    dispatch(passwordResetFormShown());
  }, [dispatch]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!isEmail(email)) {
      setLocalError('Enter the email address of your account.');
      return;
    }
    setLocalError(null);
    dispatch(passwordResetRequested({ email: email.trim() }));
  };

  return (
    <section className="screen" aria-labelledby="forgot-title">
      <div className="auth card email-link">
        <h1 id="forgot-title" className="auth__title">
          Forgot your password?
        </h1>
        {request.status === 'done' ? (
          <>
            <p className="form-success" role="status">
              {EMAIL_LINK_MESSAGES.resetSent}
            </p>
            <p className="muted">No email? Check your spam folder, or try again in a few minutes.</p>
          </>
        ) : (
          <>
            <p className="muted auth__lead">
              Enter the email address of your account and we will send you a link to choose a new password.
            </p>
            <form
              className="auth__form"
              onSubmit={submit}
              noValidate
              aria-describedby={error ? ids.error : undefined}
            >
              <div className="field">
                <label htmlFor={ids.email}>Email</label>
                <input
                  id={ids.email}
                  name="email"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  maxLength={LIMITS.emailMax}
                  required
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              </div>
              {error && (
                <p id={ids.error} className="form-error" role="alert">
                  {error}
                </p>
              )}
              <button
                type="submit"
                className="button button--primary auth__submit"
                disabled={request.status === 'working'}
              >
                {request.status === 'working' ? 'One moment…' : 'Send me a link'}
              </button>
            </form>
          </>
        )}
        <button type="button" className="link-button auth__back" onClick={back}>
          Back to sign in
        </button>
      </div>
    </section>
  );
}
