// Settings → Profile: change the email address. The current password is required; the new
// address gets a link, and only opening it replaces the old address (which is then told). The request goes through
// the mailed-links slice and saga (src/store/emailLinksSlice.ts), like the confirmation link above it.
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { isEmail } from '@core/email';
import { LIMITS } from '@core/limits';
import { PasswordField } from '@/ui/PasswordField';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { emailChangeRequested, selectEmailChange } from '@/store/emailLinksSlice';
import type { EmailChangeField } from '@/store/emailLinksSlice';

export interface EmailChangeProblem {
  message: string;
  field: EmailChangeField;
}

/** The obvious mistakes, named before anything is sent, with the field to fix (in the form's order). */
export function checkEmailChange(newEmail: string, password: string): EmailChangeProblem | null {
  if (newEmail.trim().length === 0) return { message: 'Enter your new email address.', field: 'newEmail' };
  if (!isEmail(newEmail))
    return { message: 'Enter a valid email address, such as name@example.com.', field: 'newEmail' };
  // The account's own address is refused by the backend, whose words say so (EMAIL_CHANGE_MESSAGES.same): comparing
  // here would take core/email.ts's sameEmail into the shell (where that module lives) or write the rule twice.
  if (password.length === 0) return { message: 'Enter your current password.', field: 'password' };
  return null;
}

export function ChangeEmailSection() {
  const dispatch = useAppDispatch();
  const change = useAppSelector(selectEmailChange);
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<EmailChangeProblem | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const ids = { title: useId(), email: useId(), password: useId(), hint: useId(), error: useId() };
  const sending = change.status === 'working';
  const error: { message: string; field: EmailChangeField | null } | null =
    problem ?? (change.status === 'failed' ? { message: change.error ?? '', field: change.field } : null);

  // Once the link is mailed the fields are emptied (set during render when the status moves, as React advises).
  const [seenStatus, setSeenStatus] = useState(change.status);
  if (change.status !== seenStatus) {
    setSeenStatus(change.status);
    if (change.status === 'done') {
      setNewEmail('');
      setPassword('');
    }
  }

  // A refusal about one field puts the cursor there (a wrong password, an address already taken); the alert
  // is read out either way.
  const focusField = change.status === 'failed' ? change.field : null;
  useEffect(() => {
    if (focusField) (focusField === 'password' ? passwordInput : emailInput).current?.focus();
  }, [focusField, change.error]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    // The button stays focusable while sending (aria-disabled, not disabled), so focus is never lost; a press
    // meanwhile does nothing.
    if (sending) return;
    const found = checkEmailChange(newEmail, password);
    setProblem(found);
    if (found) {
      (found.field === 'password' ? passwordInput : emailInput).current?.focus();
      return;
    }
    dispatch(emailChangeRequested({ currentPassword: password, newEmail: newEmail.trim() }));
  };

  const invalid = (field: EmailChangeField) => (error?.field === field ? true : undefined);
  const describedBy = (field: EmailChangeField, hint?: string) =>
    [hint, error?.field === field ? ids.error : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <form
      className="settings-form card"
      onSubmit={submit}
      noValidate
      aria-labelledby={ids.title}
      aria-describedby={error ? ids.error : undefined}
    >
      <h2 id={ids.title} className="settings-form__title">
        Change email
      </h2>
      <div className="field">
        <label htmlFor={ids.email}>New email address</label>
        <input
          ref={emailInput}
          id={ids.email}
          name="new-email"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={LIMITS.emailMax}
          required
          aria-invalid={invalid('newEmail')}
          aria-describedby={describedBy('newEmail', ids.hint)}
          value={newEmail}
          onChange={(e) => setNewEmail(e.target.value)}
        />
        <p id={ids.hint} className="field__hint">
          We email this address a link. Until you open it, you keep signing in with your current address.
        </p>
      </div>
      <PasswordField
        ref={passwordInput}
        id={ids.password}
        label="Current password"
        name="current-password"
        autoComplete="current-password"
        aria-invalid={invalid('password')}
        aria-describedby={describedBy('password')}
        value={password}
        onValue={setPassword}
      />
      <div className="settings-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={sending || undefined}>
          {sending ? 'Sending the link…' : 'Change email'}
        </button>
        <p className="settings-form__status" role="status">
          {change.status === 'done' && change.newEmail && (
            <span className="form-success">
              We sent a link to <strong>{change.newEmail}</strong> — your address changes when you open it.
            </span>
          )}
        </p>
      </div>
      {error && (
        <p id={ids.error} className="form-error" role="alert">
          {error.message}
        </p>
      )}
    </form>
  );
}
