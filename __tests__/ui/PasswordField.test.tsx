/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { createRef, useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { LIMITS } from '@core/limits';
import { PasswordField } from '@/ui/PasswordField';

function Form({ describedBy, hint }: { describedBy?: string; hint?: string }) {
  const [value, setValue] = useState('');
  return (
    <>
      <PasswordField
        id="pw"
        label="New password"
        name="new-password"
        autoComplete="new-password"
        aria-describedby={describedBy}
        value={value}
        onValue={setValue}
        hint={hint}
      />
      <output data-testid="value">{value}</output>
      <p id="form-error">Wrong password.</p>
    </>
  );
}

describe('PasswordField', () => {
  it('is a labelled, required password input bounded by the password limit, and reports what is typed', () => {
    render(<Form />);
    const input = screen.getByLabelText('New password') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.required).toBe(true);
    expect(input.maxLength).toBe(LIMITS.passwordMax);
    expect(input.autocomplete).toBe('new-password');
    expect(input.name).toBe('new-password');
    expect(input.getAttribute('aria-describedby')).toBeNull();
    fireEvent.change(input, { target: { value: 'correct horse' } });
    expect(screen.getByTestId('value').textContent).toBe('correct horse');
    expect(input.value).toBe('correct horse');
  });

  it('describes the input with the form error first, then its hint', () => {
    render(<Form describedBy="form-error" hint="At least 8 characters." />);
    const input = screen.getByLabelText('New password');
    expect(input.getAttribute('aria-describedby')).toBe('form-error pw-hint');
    const description = input
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(description).toEqual(['Wrong password.', 'At least 8 characters.']);
  });

  it('hands its ref to the input, so a form can focus it after an error', () => {
    const ref = createRef<HTMLInputElement>();
    render(
      <PasswordField
        ref={ref}
        id="x"
        label="Password"
        autoComplete="current-password"
        value=""
        onValue={() => {}}
      />,
    );
    ref.current?.focus();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
  });
});
