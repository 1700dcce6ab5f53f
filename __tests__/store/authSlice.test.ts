import { findNonSerializableValue } from '@reduxjs/toolkit';
import reducer, {
  failureDismissed,
  initialState,
  requestCompleted,
  requestFailed,
  selectAuthFailure,
  selectAuthPending,
  signInRequested,
  selectSignUpSentTo,
  signOutRequested,
  signUpAnswered,
  signUpNoticeDismissed,
  signUpRequested,
} from '@/store/authSlice';
import type { AuthState } from '@/store/authSlice';

const credentials = { email: 'ada@example.com', password: 'correct horse battery staple' };
const wrongPassword = {
  kind: 'signIn' as const,
  status: 'UNAUTHENTICATED',
  message: "That email and password don't match.",
  reason: 'invalid-credentials' as const,
};

const view = (auth: AuthState) => ({
  pending: selectAuthPending({ auth }),
  failure: selectAuthFailure({ auth }),
});

describe('auth reducer', () => {
  it('starts with nothing asked and nothing failed', () => {
    expect(view(reducer(undefined, { type: '@@INIT' }))).toEqual({ pending: null, failure: null });
  });

  it.each([
    ['a sign-in', signInRequested(credentials), 'signIn'],
    ['a sign-up', signUpRequested({ ...credentials, displayName: 'Ada' }), 'signUp'],
    ['a sign-out', signOutRequested(), 'signOut'],
  ] as const)('waits for %s and forgets the failure of the attempt before', (_label, request, kind) => {
    const failed = reducer(initialState, requestFailed(wrongPassword));
    expect(view(reducer(failed, request))).toEqual({ pending: kind, failure: null });
  });

  it('stops waiting when the backend did what was asked', () => {
    const state = reducer(reducer(initialState, signInRequested(credentials)), requestCompleted());
    expect(view(state)).toEqual({ pending: null, failure: null });
  });

  it('keeps the status, words and reason of a refusal for the form, and stops waiting', () => {
    const state = reducer(reducer(initialState, signInRequested(credentials)), requestFailed(wrongPassword));
    expect(view(state)).toEqual({
      pending: null,
      failure: {
        kind: 'signIn',
        status: 'UNAUTHENTICATED',
        message: "That email and password don't match.",
        reason: 'invalid-credentials',
      },
    });
  });

  it('drops the failure when the person dismisses it, without touching a request on its way', () => {
    const failed = reducer(initialState, requestFailed({ kind: 'signUp', status: 'INTERNAL', message: 'x' }));
    expect(view(reducer(failed, failureDismissed()))).toEqual({ pending: null, failure: null });
    const waiting = reducer(initialState, signOutRequested());
    expect(selectAuthPending({ auth: reducer(waiting, failureDismissed()) })).toBe('signOut');
  });

  it('keeps the address a sign-up was answered for, until the person moves on', () => {
    const answered = reducer(
      reducer(initialState, signUpRequested(credentials)),
      signUpAnswered(credentials),
    );
    expect(view(answered)).toEqual({ pending: null, failure: null });
    expect(selectSignUpSentTo({ auth: answered })).toBe('ada@example.com');
    expect(selectSignUpSentTo({ auth: reducer(answered, signUpNoticeDismissed()) })).toBeNull();
    expect(selectSignUpSentTo({ auth: reducer(answered, signInRequested(credentials)) })).toBeNull();
    expect(selectSignUpSentTo({ auth: reducer(answered, signUpRequested(credentials)) })).toBeNull();
    expect(JSON.stringify(answered)).not.toContain(credentials.password);
  });

  it('never keeps the password it was asked with', () => {
    const state = reducer(initialState, signInRequested(credentials));
    expect(JSON.stringify(state)).not.toContain(credentials.password);
  });

  it('stays serializable through a refused request', () => {
    const state = reducer(reducer(initialState, signUpRequested(credentials)), requestFailed(wrongPassword));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
