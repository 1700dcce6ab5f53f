/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// Settings → Profile's change of email, on the real store: the mistakes it names before
// sending, what it asks for, and what a person sees and where their cursor is while it is sent, once the link is
// mailed, and when it is refused.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { ChangeEmailSection, checkEmailChange } from '@/features/settings/ChangeEmailSection';
import { ChangePasswordSection } from '@/features/settings/ChangePasswordSection';
import { EmailVerification } from '@/features/settings/EmailVerification';
import {
  emailChangeFailed,
  emailChangeMailed,
  emailChangeRequested,
  emailVerificationLoaded,
} from '@/store/emailLinksSlice';
import { recordActions } from '../../support/recordingStore';

const REQUESTED = emailChangeRequested.type;

function renderForm(element: React.JSX.Element = <ChangeEmailSection />) {
  const recording = recordActions();
  render(<Provider store={recording.store}>{element}</Provider>);
  // The account's address as settings shows it above the form.
  act(() => {
    recording.dispatch(emailVerificationLoaded({ email: 'mia@example.com', verified: true }));
  });
  return recording;
}

const form = () => screen.getByRole('form', { name: 'Change email' });
const emailField = () => screen.getByLabelText('New email address') as HTMLInputElement;
const passwordField = () => screen.getByLabelText('Current password') as HTMLInputElement;
const submitButton = () => screen.getByRole('button', { name: /^(Change email|Sending the link…)$/ });

function fill(newEmail: string, password: string): void {
  fireEvent.change(emailField(), { target: { value: newEmail } });
  fireEvent.change(passwordField(), { target: { value: password } });
  fireEvent.click(submitButton());
}

describe('ChangeEmailSection', () => {
  it('names the obvious mistakes before sending anything, with the cursor in the field to fix', () => {
    const { seen } = renderForm();
    fill('', 'qupm-demo');
    expect(screen.getByRole('alert').textContent).toBe('Enter your new email address.');
    expect(document.activeElement).toBe(emailField());
    expect(emailField().getAttribute('aria-invalid')).toBe('true');

    fill('mia@', 'qupm-demo');
    expect(screen.getByRole('alert').textContent).toMatch(/^Enter a valid email address/);

    fill('mia.new@example.com', '');
    expect(screen.getByRole('alert').textContent).toBe('Enter your current password.');
    expect(document.activeElement).toBe(passwordField());
    expect(passwordField().getAttribute('aria-invalid')).toBe('true');
    expect(emailField().getAttribute('aria-invalid')).toBeNull();

    expect(seen.filter((a) => a.type === REQUESTED)).toHaveLength(0);
    expect(checkEmailChange(' new@example.com ', 'pw')).toBeNull();
  });

  it('asks for the change, keeps focus on its button while sending, and says where the link went', () => {
    const { dispatch, seen } = renderForm();
    fill(' mia.new@example.com ', 'qupm-demo');
    expect(seen.filter((a) => a.type === REQUESTED)).toEqual([
      { type: REQUESTED, payload: { currentPassword: 'qupm-demo', newEmail: 'mia.new@example.com' } },
    ]);
    expect(form().getAttribute('aria-describedby')).toBeNull();

    // Sending: the button says so and stays focusable (aria-disabled); a second press asks for nothing more.
    const button = screen.getByRole('button', { name: 'Sending the link…' });
    button.focus();
    expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(button);
    expect(seen.filter((a) => a.type === REQUESTED)).toHaveLength(1);

    act(() => {
      dispatch(emailChangeMailed({ newEmail: 'mia.new@example.com' }));
    });
    expect(screen.getByRole('status').textContent).toBe(
      'We sent a link to mia.new@example.com — your address changes when you open it.',
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Change email' }));
    expect(emailField().value).toBe('');
    expect(passwordField().value).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a refusal in words and puts the cursor in the field it is about', () => {
    const { dispatch } = renderForm();
    fill('mia.new@example.com', 'not-my-password');
    act(() => {
      dispatch(
        emailChangeFailed({
          message: 'That is not your current password. Check it and try again.',
          field: 'password',
        }),
      );
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'That is not your current password. Check it and try again.',
    );
    expect(document.activeElement).toBe(passwordField());
    expect(passwordField().getAttribute('aria-describedby')).toBe(form().getAttribute('aria-describedby'));

    // Again, about the address this time: the cursor follows.
    fireEvent.click(submitButton());
    act(() => {
      dispatch(
        emailChangeFailed({ message: 'Another account already uses this address.', field: 'newEmail' }),
      );
    });
    expect(document.activeElement).toBe(emailField());

    // A refusal about no field (offline, too many tries) leaves the cursor where it is.
    fireEvent.click(submitButton());
    submitButton().focus();
    act(() => {
      dispatch(emailChangeFailed({ message: "Can't reach QuPM right now.", field: null }));
    });
    expect(screen.getByRole('alert').textContent).toBe("Can't reach QuPM right now.");
    expect(document.activeElement).toBe(submitButton());
  });

  it('gives every button of Settings → Profile’s account forms a name of its own', () => {
    const { dispatch } = renderForm(
      <>
        <EmailVerification />
        <ChangeEmailSection />
        <ChangePasswordSection />
      </>,
    );
    act(() => {
      dispatch(emailVerificationLoaded({ email: 'mia@example.com', verified: false }));
    });
    const names = screen.getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['Send a new confirmation link', 'Change email', 'Change password']);
    // Both forms ask for the current password: each field is found within its own named form.
    expect(screen.getAllByRole('form').map((f) => f.querySelector('h2')?.textContent)).toEqual([
      'Change email',
      'Change password',
    ]);
  });
});
