// `/verify-email?token=…`: the link of a confirmation mail. It confirms the address at once
// (signed in or not: the link may be opened on another device) and says how it went. A Firebase action link
// (`?mode=…&oobCode=…`) is read too, and one for a password reset is passed on to /reset-password.
import { useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { TOKEN_PARAM } from '@core/paths';
import { isLinkToken } from '@core/emailLinks';
import '@/ui/auth-form.css';
import '@/ui/email-link.css';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  emailVerifyRequested,
  selectEmailVerify,
  verificationMailRequested,
  selectVerificationResend,
} from '@/store/emailLinksSlice';
import { selectAuthStatus } from '@/store/userSlice';

export function Component() {
  const [params] = useSearchParams();
  const { search } = useLocation();
  const dispatch = useAppDispatch();
  const verify = useAppSelector(selectEmailVerify);
  const resend = useAppSelector(selectVerificationResend);
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  const token = params.get(TOKEN_PARAM) ?? params.get('oobCode') ?? '';
  const valid = isLinkToken(token);
  const asked = useRef(false);
  const resetLink = params.get('mode') === 'resetPassword';

  useEffect(() => {
    if (!valid || resetLink || asked.current) return;
    asked.current = true;
    dispatch(emailVerifyRequested({ token }));
  }, [dispatch, token, valid, resetLink]);

  if (resetLink) return <Navigate to={`/reset-password${search}`} replace />;

  let body: React.ReactNode;
  if (!valid) {
    body = (
      <>
        <h1 id="verify-title">This link is incomplete</h1>
        <p>
          Open the whole link from the email we sent you. If your mail app cut it in two, copy all of it into
          the address bar.
        </p>
      </>
    );
  } else if (verify.status === 'done') {
    body = (
      <>
        <h1 id="verify-title">Your email address is confirmed</h1>
        <p>Thank you. Invitations sent to this address can now be accepted.</p>
        {/* A sign-up's link made the account just now, and nobody is signed in by a link. */}
        <Link className="button button--primary" to="/">
          {signedIn ? 'Continue to QuPM' : 'Sign in to QuPM'}
        </Link>
      </>
    );
  } else if (verify.status === 'failed') {
    body = (
      <>
        <h1 id="verify-title">We could not confirm your email address</h1>
        <p className="form-error" role="alert">
          {verify.error}
        </p>
        {signedIn ? (
          <ResendButton
            status={resend.status}
            error={resend.error}
            onSend={() => dispatch(verificationMailRequested())}
          />
        ) : (
          <p>
            <Link to="/settings/profile">Sign in</Link> to ask for a new link.
          </p>
        )}
      </>
    );
  } else {
    body = (
      <>
        <h1 id="verify-title">Confirming your email address…</h1>
        <p className="muted" role="status">
          One moment.
        </p>
      </>
    );
  }
  return (
    <section className="screen" aria-labelledby="verify-title">
      <div className="card email-link">{body}</div>
    </section>
  );
}

function ResendButton({
  status,
  error,
  onSend,
}: {
  status: string;
  error: string | null;
  onSend: () => void;
}) {
  if (status === 'done') {
    return (
      <p className="form-success" role="status">
        We have sent you a new link. It is valid for 24 hours.
      </p>
    );
  }
  return (
    <>
      <button type="button" className="button" onClick={onSend} disabled={status === 'working'}>
        {status === 'working' ? 'Sending…' : 'Send me a new link'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
