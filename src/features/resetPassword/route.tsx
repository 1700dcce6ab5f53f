// `/reset-password?token=…`: the link of a password-reset mail. The person chooses a new
// password; every session of the account ends, this device's too, and they sign in with it. A Firebase action
// link (`?oobCode=…`) is read too.
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LIMITS } from '@core/limits';
import { PasswordField } from '@/ui/PasswordField';
import { TOKEN_PARAM } from '@core/paths';
import { isLinkToken } from '@core/emailLinks';
import '@/ui/auth-form.css';
import '@/ui/email-link.css';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { passwordResetConfirmRequested, selectPasswordResetConfirm } from '@/store/emailLinksSlice';
import { ForgotPassword } from './ForgotPassword';

export function Component() {
  const [params] = useSearchParams();
  const dispatch = useAppDispatch();
  const confirm = useAppSelector(selectPasswordResetConfirm);
  const token = params.get(TOKEN_PARAM) ?? params.get('oobCode');
  const [password, setPassword] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const ids = { password: useId(), error: useId() };
  const error = localError ?? (confirm.status === 'failed' ? confirm.error : null);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax) {
      setLocalError(`Choose a password of ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`);
      return;
    }
    setLocalError(null);
    dispatch(passwordResetConfirmRequested({ token: token ?? '', password }));
  };

  // Without a link, the page asks for one ("Forgot your password?").
  if (token === null) return <ForgotPassword />;

  let body: React.ReactNode;
  if (!isLinkToken(token)) {
    body = (
      <>
        <h1 id="reset-title">This link is incomplete</h1>
        <p>Open the whole link from the email we sent you, or ask for a new one from the sign-in page.</p>
        <Link className="button" to="/">
          Go to the sign-in page
        </Link>
      </>
    );
  } else if (confirm.status === 'done') {
    body = (
      <>
        <h1 id="reset-title">Your password has been changed</h1>
        <p role="status">
          Every device that was signed in has been signed out. Sign in with your new password.
        </p>
        <Link className="button button--primary" to="/">
          Sign in
        </Link>
      </>
    );
  } else {
    const busy = confirm.status === 'working';
    body = (
      <>
        <h1 id="reset-title">Choose a new password</h1>
        <p className="muted">Choosing a new password signs you out on every device.</p>
        <form
          className="auth__form"
          onSubmit={submit}
          noValidate
          aria-describedby={error ? ids.error : undefined}
        >
          <PasswordField
            id={ids.password}
            label="New password"
            name="new-password"
            autoComplete="new-password"
            value={password}
            onValue={setPassword}
            hint={`At least ${LIMITS.passwordMin} characters.`}
          />
          {error && (
            <p id={ids.error} className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'One moment…' : 'Save my new password'}
          </button>
        </form>
        {confirm.status === 'failed' && (
          <p>
            <Link to="/">Ask for a new link</Link> from the sign-in page.
          </p>
        )}
      </>
    );
  }
  return (
    <section className="screen" aria-labelledby="reset-title">
      <div className="card email-link">{body}</div>
    </section>
  );
}
