// Settings → Profile: change the password. The current password is required; the new one
// follows sign-up's policy (core/limits.ts); once it changes, the account's other sessions are signed out.
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { LIMITS } from '@core/limits';
import { PasswordField } from '@/ui/PasswordField';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { passwordChangeRequested, selectPasswordChange } from './sessionsSlice';

/** The obvious mistakes, named before anything is sent. */
export function checkPasswordChange(currentPassword: string, newPassword: string): string | null {
  if (currentPassword.length === 0) return 'Enter your current password.';
  if (newPassword.length < LIMITS.passwordMin)
    return `Choose a new password of at least ${LIMITS.passwordMin} characters.`;
  if (newPassword.length > LIMITS.passwordMax)
    return `That password is too long (${LIMITS.passwordMax} characters at most).`;
  if (newPassword === currentPassword)
    return 'Choose a new password that is different from your current one.';
  return null;
}

export function ChangePasswordSection() {
  const dispatch = useAppDispatch();
  const change = useAppSelector(selectPasswordChange);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), current: useId(), next: useId(), error: useId() };
  const error = problem ?? (change.status === 'failed' ? change.error : null);

  // Once it changed, the fields are emptied (set during render when the status moves, as React advises).
  const [seenStatus, setSeenStatus] = useState(change.status);
  if (change.status !== seenStatus) {
    setSeenStatus(change.status);
    if (change.status === 'saved') {
      setCurrentPassword('');
      setNewPassword('');
    }
  }

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found = checkPasswordChange(currentPassword, newPassword);
    setProblem(found);
    if (found) return;
    dispatch(passwordChangeRequested({ currentPassword, newPassword }));
  };

  return (
    <form
      className="settings-form card"
      onSubmit={submit}
      noValidate
      aria-labelledby={ids.title}
      aria-describedby={error ? ids.error : undefined}
    >
      <h2 id={ids.title} className="settings-form__title">
        Change password
      </h2>
      <PasswordField
        id={ids.current}
        label="Current password"
        name="current-password"
        autoComplete="current-password"
        value={currentPassword}
        onValue={setCurrentPassword}
      />
      <PasswordField
        id={ids.next}
        label="New password"
        name="new-password"
        autoComplete="new-password"
        value={newPassword}
        onValue={setNewPassword}
        hint={`At least ${LIMITS.passwordMin} characters. Your other devices are signed out when it changes.`}
      />
      <div className="settings-form__actions">
        <button type="submit" className="button button--primary" disabled={change.status === 'saving'}>
          {change.status === 'saving' ? 'Changing…' : 'Change password'}
        </button>
        <p className="settings-form__status" role="status">
          {change.status === 'saved' && (
            <span className="form-success">Password changed. Your other devices were signed out.</span>
          )}
        </p>
      </div>
      {error && (
        <p id={ids.error} className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
