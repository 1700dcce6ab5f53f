// The person's requests to the auth backend (sign in, sign up, sign out) and how the last one ended, for the
// forms that asked. The session itself lives in the user slice.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { ErrorReason } from '@core/errors';

export type AuthRequestKind = 'signIn' | 'signUp' | 'signOut';

export interface AuthFailure {
  status: string;
  message: string;
  reason?: ErrorReason;
}

export interface AuthState {
  pending: AuthRequestKind | null;
  failure: (AuthFailure & { kind: AuthRequestKind }) | null;
  /**
   * This window was signed out without asking (its session was ended from another device or
   * window, or by a change of password); the sign-in form says so until the next attempt.
   */
  sessionEnded?: boolean;
  /**
   * The address a sign-up was answered for: the form says to check that inbox. The answer is the same whether the
   * address has an account or not (nobody can tell from it), and nobody is signed in by it.
   */
  signUpSentTo?: string;
}

export const initialState: AuthState = { pending: null, failure: null };

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signInRequested(state, _action: PayloadAction<{ email: string; password: string }>) {
      state.pending = 'signIn';
      state.failure = null;
      delete state.sessionEnded;
      delete state.signUpSentTo;
    },
    signUpRequested(
      state,
      _action: PayloadAction<{ email: string; password: string; displayName?: string }>,
    ) {
      state.pending = 'signUp';
      state.failure = null;
      delete state.sessionEnded;
      delete state.signUpSentTo;
    },
    /** The backend took the sign-up: a link or a notice is on its way to the address ("Check your inbox"). */
    signUpAnswered(state, action: PayloadAction<{ email: string }>) {
      state.pending = null;
      state.failure = null;
      state.signUpSentTo = action.payload.email;
    },
    /** The person left "Check your inbox" (to sign in, or to sign up again). */
    signUpNoticeDismissed(state) {
      delete state.signUpSentTo;
    },
    signOutRequested(state) {
      state.pending = 'signOut';
      state.failure = null;
    },
    /** The backend did what the person asked (or the request was cut short): the form stops waiting. */
    requestCompleted(state) {
      state.pending = null;
      state.failure = null;
    },
    requestFailed(state, action: PayloadAction<AuthFailure & { kind: AuthRequestKind }>) {
      state.pending = null;
      state.failure = action.payload;
    },
    failureDismissed(state) {
      state.failure = null;
    },
    /** The session of this window ended without the person asking here. */
    signedOutUnasked(state) {
      state.sessionEnded = true;
    },
  },
});

export const {
  signInRequested,
  signUpRequested,
  signUpAnswered,
  signUpNoticeDismissed,
  signOutRequested,
  requestCompleted,
  requestFailed,
  failureDismissed,
  signedOutUnasked,
} = authSlice.actions;
export default authSlice.reducer;

interface WithAuth {
  auth: AuthState;
}
export const selectAuthPending = (state: WithAuth): AuthRequestKind | null => state.auth.pending;
export const selectAuthFailure = (state: WithAuth): AuthState['failure'] => state.auth.failure;
export const selectSessionEnded = (state: WithAuth): boolean => state.auth.sessionEnded === true;
export const selectSignUpSentTo = (state: WithAuth): string | null => state.auth.signUpSentTo ?? null;
