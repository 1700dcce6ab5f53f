// A labelled password field with an optional hint, for the forms that ask for a password outside sign-in
// (change password, change email, delete account, choose a new password). The hint is tied to the input with
// aria-describedby, after whatever the form itself describes it with (its error). The sign-in form keeps its own
// fields: it lives in the shell, and this component lives in the chunks of the screens that use it.
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { LIMITS } from '@core/limits';

export interface PasswordFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'value' | 'onChange' | 'autoComplete' | 'id'
> {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** current-password when the person proves who they are, new-password when they choose one. */
  autoComplete: 'current-password' | 'new-password';
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function PasswordField({
  id,
  label,
  value,
  onValue,
  hint,
  'aria-describedby': describedBy,
  ...input
}: PasswordFieldProps) {
  const hintId = `${id}-hint`;
  const described = [describedBy, hint ? hintId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        maxLength={LIMITS.passwordMax}
        required
        {...input}
        id={id}
        type="password"
        aria-describedby={described}
        value={value}
        onChange={(event) => onValue(event.target.value)}
      />
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
