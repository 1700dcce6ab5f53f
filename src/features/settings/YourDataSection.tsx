// Settings → Your data: "Download my data" (a JSON file of everything QuPM keeps about the
// account) and "Delete my account" (a confirm step with the password). Once the account is deleted the person is
// signed out and this section says so in a plain sentence.
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { FORMER_MEMBER_NAME } from '@core/leaving';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthStatus, selectIsConsultant } from '@/store/userSlice';
import { AuthForm } from '@/ui/AuthForm';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { PasswordField } from '@/ui/PasswordField';
import { accountDeletionRequested, dataExportRequested, selectLeaving } from './leavingSlice';
import { OwnedChannels } from './OwnedChannels';
import './yourData.css';

function Deleted() {
  return (
    <div className="card your-data__deleted" role="status">
      <h2>Your account has been deleted</h2>
      <p>
        You are signed out. Your profile, devices and sessions are gone; the messages you sent stay in their
        channels, shown as from “{FORMER_MEMBER_NAME.toLowerCase()}”.
      </p>
      <Link className="button" to="/">
        Back to the start
      </Link>
    </div>
  );
}

function DownloadData() {
  const dispatch = useAppDispatch();
  const { export: state } = useAppSelector(selectLeaving);
  const preparing = state.status === 'preparing';
  return (
    <section className="card your-data__part" aria-labelledby="your-data-download">
      <h2 id="your-data-download">Download my data</h2>
      <p className="muted">
        One file (JSON) with your account, settings, the messages you sent, your offers, invitations and
        devices. Passwords and device keys are never in it.
      </p>
      <div className="settings-form__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={preparing}
          onClick={() => dispatch(dataExportRequested())}
        >
          {preparing ? 'Preparing your file…' : 'Download my data'}
        </button>
        <p className="settings-form__status" role="status">
          {state.status === 'saved' && state.fileName && (
            <span className="form-success">Saved as {state.fileName}.</span>
          )}
        </p>
      </div>
      {state.status === 'failed' && state.error && (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      )}
    </section>
  );
}

function DeleteAccount() {
  const dispatch = useAppDispatch();
  const { deletion } = useAppSelector(selectLeaving);
  const isConsultant = useAppSelector(selectIsConsultant);
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const passwordId = useId();
  const input = useRef<HTMLInputElement>(null);
  const deleting = deletion.status === 'deleting';

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    dispatch(accountDeletionRequested({ password }));
  };

  return (
    <section className="card your-data__part" aria-labelledby="your-data-delete">
      <h2 id="your-data-delete">Delete my account</h2>
      <p className="muted">
        Your profile, devices, sessions and settings are removed and you are signed out everywhere. The
        messages you sent stay where they are, shown to the others as from “{FORMER_MEMBER_NAME.toLowerCase()}
        ”.
        {isConsultant && ' As a consultant, hand over or delete your channels first.'} This cannot be undone.
      </p>
      {isConsultant && <OwnedChannels />}
      {!confirming ? (
        <div className="settings-form__actions">
          <button
            type="button"
            className="button"
            onClick={() => {
              setConfirming(true);
              requestAnimationFrame(() => input.current?.focus());
            }}
          >
            Delete my account…
          </button>
        </div>
      ) : (
        <form className="your-data__confirm" onSubmit={submit}>
          <PasswordField
            ref={input}
            id={passwordId}
            label="Your password, to confirm"
            name="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
          />
          {deletion.status === 'failed' && deletion.error && (
            <p className="form-error" role="alert">
              {deletion.error}
            </p>
          )}
          <div className="settings-form__actions">
            <button type="submit" className="button button--danger" disabled={deleting || password === ''}>
              {deleting ? 'Deleting…' : 'Delete my account for good'}
            </button>
            <button
              type="button"
              className="button button--quiet"
              disabled={deleting}
              onClick={() => {
                setConfirming(false);
                setPassword('');
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

export function YourDataSection() {
  const status = useAppSelector(selectAuthStatus);
  const { deletion } = useAppSelector(selectLeaving);
  if (deletion.status === 'deleted') return <Deleted />;
  if (status === 'unknown' || status === 'loading') return <LoadingScreen inline />;
  if (status === 'signedOut') return <AuthForm title="Sign in" lead="Sign in to manage your data." />;
  return (
    <div className="your-data">
      <DownloadData />
      <DeleteAccount />
    </div>
  );
}
