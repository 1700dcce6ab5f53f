/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { AuthForm } from '@/ui/AuthForm';
import { createAppStore } from '@/app/store';
import { requestFailed, signUpAnswered } from '@/store/authSlice';

function renderForm() {
  const store = createAppStore();
  render(
    <Provider store={store}>
      <AuthForm title="Welcome" />
    </Provider>,
  );
  return store;
}

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('AuthForm', () => {
  it('names an obvious mistake before sending anything', () => {
    const store = renderForm();
    fill(/email/i, 'not-an-email');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter your email address, like name@example.com.');
    expect(store.getState().auth.pending).toBeNull();
  });

  it('asks for a longer password when creating an account', () => {
    renderForm();
    fireEvent.click(screen.getByRole('tab', { name: 'Create account' }));
    fill(/email/i, 'ada@example.com');
    fill(/password/i, 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose a password of at least 8 characters.');
  });

  it('sends the sign-in and shows that it is under way', () => {
    const store = renderForm();
    fill(/email/i, '  ada@example.com ');
    fill(/password/i, 'secret-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(store.getState().auth.pending).toBe('signIn');
    expect((screen.getByRole('button', { name: 'One moment…' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    [
      { status: 'UNAUTHENTICATED', message: 'x', reason: 'invalid-credentials' as const },
      "That email and password don't match.",
    ],
    [{ status: 'RESOURCE_EXHAUSTED', message: 'x' }, 'Too many attempts. Wait a minute and try again.'],
    [{ status: 'UNAVAILABLE', message: 'x' }, "Can't reach QuPM right now."],
  ])('words a refused sign-in for a person (%o)', (failure, words) => {
    const store = renderForm();
    act(() => {
      store.dispatch(requestFailed({ kind: 'signIn', ...failure }));
    });
    expect(screen.getByRole('alert').textContent).toContain(words);
  });

  it('answers a sign-up with "Check your inbox" for the address, and then signs in with it', () => {
    const store = renderForm();
    fireEvent.click(screen.getByRole('tab', { name: 'Create account' }));
    fill(/email/i, ' ada@example.com ');
    fill(/password/i, 'a-good-password');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    // What the saga puts when the backend took it, new address or taken alike.
    act(() => {
      store.dispatch(signUpAnswered({ email: 'ada@example.com' }));
    });
    expect(screen.getByRole('status').textContent).toBe(
      'Check your inbox' +
        'We have sent an email to ada@example.com. Open the link in it to finish creating your account, then sign in here.' +
        'No email after a few minutes? Look in your spam folder, or create your account again.' +
        'Sign in',
    );
    expect(screen.queryByLabelText(/password/i)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('tab', { name: 'Sign in' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText(/email/i) as HTMLInputElement).value).toBe('ada@example.com');
    expect((screen.getByLabelText(/password/i) as HTMLInputElement).value).toBe('');
    expect(store.getState().auth.signUpSentTo).toBeUndefined();
  });

  it('words a refused sign-up with a taken-address reason as any other failure (nobody learns it from here)', () => {
    const store = renderForm();
    fireEvent.click(screen.getByRole('tab', { name: 'Create account' }));
    act(() => {
      store.dispatch(
        requestFailed({ kind: 'signUp', status: 'ALREADY_EXISTS', message: 'x', reason: 'email-taken' }),
      );
    });
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong. Please try again.');
  });

  it('fills a demo account on the embedded backend', () => {
    renderForm();
    fireEvent.click(screen.getByText('Try a demo account'));
    fireEvent.click(screen.getByRole('button', { name: 'member@qupm.demo' }));
    expect((screen.getByLabelText(/email/i) as HTMLInputElement).value).toBe('member@qupm.demo');
    expect((screen.getByLabelText(/password/i) as HTMLInputElement).value).toBe('qupm-demo');
  });

  it('offers "Forgot your password?" when signing in, leading to the reset page (issue #15)', () => {
    renderForm();
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/reset-password',
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Create account' }));
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).toBeNull();
  });
});
