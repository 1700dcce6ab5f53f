// Sign in / create an account. Used on `/` and wherever a screen needs a signed-in person (an invitation).
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { LIMITS } from '@core/limits';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  failureDismissed,
  selectAuthFailure,
  selectAuthPending,
  selectSessionEnded,
  selectSignUpSentTo,
  signInRequested,
  signUpNoticeDismissed,
  signUpRequested,
} from '@/store/authSlice';
import { describeAuthFailure, validateAuthForm } from './authMessages';

import './auth-form.css';

type Mode = 'signIn' | 'signUp';

const DEMO_ACCOUNTS = ['consultant@qupm.demo', 'member@qupm.demo', 'visitor@qupm.demo', 'admin@qupm.demo'];
const DEMO_PASSWORD = 'qupm-demo';

export function AuthForm({
  title,
  lead,
  initialMode = 'signIn',
  titleLevel = 1,
}: {
  title: string;
  lead?: string;
  /** Which tab is open first: an invitation's visitor most likely has no account yet. */
  initialMode?: Mode;
  /** 2 where the screen around the form has its own h1. */
  titleLevel?: 1 | 2;
}) {
  const dispatch = useAppDispatch();
  const pending = useAppSelector(selectAuthPending);
  const failure = useAppSelector(selectAuthFailure);
  const sessionEnded = useAppSelector(selectSessionEnded);
  const sentTo = useAppSelector(selectSignUpSentTo);
  const [mode, setMode] = useState<Mode>(initialMode);
  const Title = titleLevel === 1 ? 'h1' : 'h2';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const ids = { email: useId(), password: useId(), name: useId(), error: useId() };

  const busy = pending === 'signIn' || pending === 'signUp';
  const error =
    localError ?? (failure && failure.kind !== 'signOut' ? describeAuthFailure(failure, failure.kind) : null);

  const switchMode = (next: Mode): void => {
    setMode(next);
    setLocalError(null);
    dispatch(failureDismissed());
    dispatch(signUpNoticeDismissed());
  };

  /** From "Check your inbox" to signing in with the address just given, once the link has been opened. */
  const signInAfterSignUp = (): void => {
    if (sentTo) setEmail(sentTo);
    setPassword('');
    switchMode('signIn');
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const problem = validateAuthForm(mode, { email, password });
    setLocalError(problem);
    if (problem) return;
    if (mode === 'signIn') dispatch(signInRequested({ email: email.trim(), password }));
    else {
      const name = displayName.trim();
      dispatch(signUpRequested({ email: email.trim(), password, ...(name ? { displayName: name } : {}) }));
    }
  };

  return (
    <div className="auth card">
      <Title className="auth__title">{title}</Title>
      {lead && <p className="muted auth__lead">{lead}</p>}
      {sessionEnded && (
        <p className="offline-notice auth__lead" role="status">
          You were signed out: this session was ended elsewhere.
        </p>
      )}
      <div className="auth__tabs" role="tablist" aria-label="Sign in or create an account">
        <button
          type="button"
          role="tab"
          aria-selected={mode === 'signIn'}
          className={mode === 'signIn' ? 'auth__tab auth__tab--active' : 'auth__tab'}
          onClick={() => switchMode('signIn')}
        >
          Sign in
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={mode === 'signUp'}
          className={mode === 'signUp' ? 'auth__tab auth__tab--active' : 'auth__tab'}
          onClick={() => switchMode('signUp')}
        >
          Create account
        </button>
      </div>
      {mode === 'signUp' && sentTo !== null ? (
        <CheckInbox email={sentTo} onSignIn={signInAfterSignUp} />
      ) : (
        <form
          className="auth__form"
          onSubmit={submit}
          noValidate
          aria-describedby={error ? ids.error : undefined}
        >
          {mode === 'signUp' && (
            <div className="field">
              <label htmlFor={ids.name}>Your name</label>
              <input
                id={ids.name}
                name="name"
                autoComplete="name"
                maxLength={LIMITS.displayNameMax}
                value={displayName}
                onChange={(e) => setDisplayName(e.target.value)}
              />
            </div>
          )}
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
          <div className="field">
            <label htmlFor={ids.password}>Password</label>
            <input
              id={ids.password}
              name="password"
              type="password"
              autoComplete={mode === 'signIn' ? 'current-password' : 'new-password'}
              maxLength={LIMITS.passwordMax}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            {mode === 'signUp' && <p className="field__hint">At least {LIMITS.passwordMin} characters.</p>}
            {mode === 'signIn' && <a href="/reset-password">Forgot your password?</a>}
          </div>
          {error && (
            <p id={ids.error} className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--primary auth__submit" disabled={busy}>
            {busy ? 'One moment…' : mode === 'signIn' ? 'Sign in' : 'Create account'}
          </button>
        </form>
      )}
      {__BACKEND__ === 'local' && mode === 'signIn' && (
        <details className="auth__demo">
          <summary>Try a demo account</summary>
          <p className="muted">Every demo account uses the password {DEMO_PASSWORD}.</p>
          <ul>
            {DEMO_ACCOUNTS.map((account) => (
              <li key={account}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setEmail(account);
                    setPassword(DEMO_PASSWORD);
                    setLocalError(null);
                  }}
                >
                  {account}
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/**
 * What a sign-up answers, whether the address is new or has an account already (the backend tells its owner by
 * email): nobody can learn from this screen which it was.
 */
function CheckInbox({ email, onSignIn }: { email: string; onSignIn: () => void }) {
  return (
    <div className="auth__form auth__sent" role="status">
      <p className="auth__sent-title">Check your inbox</p>
      <p>
        We have sent an email to <strong>{email}</strong>. Open the link in it to finish creating your
        account, then sign in here.
      </p>
      <p className="muted">
        No email after a few minutes? Look in your spam folder, or create your account again.
      </p>
      <button type="button" className="button button--primary auth__submit" onClick={onSignIn}>
        Sign in
      </button>
    </div>
  );
}
