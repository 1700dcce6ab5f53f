// The links QuPM mails, as the screens see them: the signed-in account's confirmation state
// and a new link asked for (settings), a confirmation link being used (/verify-email), a password reset asked for
// (the sign-in form) and used (/reset-password), and a change of address asked for (settings).
// The sagas call the auth port (src/sagas/emailLinksSaga.ts).
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import { sharedReducer } from './reducer';
import type { LoadStatus } from './status';
import { signedOut } from './userSlice';

/** Every action of this slice has a type with this prefix (src/app/lazySagas.ts waits for one). */
export const EMAIL_LINKS_DOMAIN = 'emailLinks';

/** A request a screen makes once and waits on. */
export type LinkRequestStatus = 'idle' | 'working' | 'done' | 'failed';

export interface LinkRequest {
  status: LinkRequestStatus;
  error: string | null;
}

/** The field of the change-of-email form a refusal is about (the form moves focus there). */
export type EmailChangeField = 'newEmail' | 'password';

/** A change of address asked for: once mailed, the address the link went to; once refused, which field. */
export interface EmailChangeRequest extends LinkRequest {
  newEmail: string | null;
  field: EmailChangeField | null;
}

export interface EmailLinksState {
  verification: { status: LoadStatus; email: string | null; verified: boolean; error: string | null };
  /** A new confirmation link asked for from settings. */
  resend: LinkRequest;
  /** A confirmation link being used (/verify-email). */
  verify: LinkRequest;
  /** A password-reset link asked for (the sign-in form). */
  resetRequest: LinkRequest;
  /** A password-reset link being used (/reset-password). */
  resetConfirm: LinkRequest;
  /** A new address asked for from settings; it replaces the old one only when its link is used (verify). */
  emailChange: EmailChangeRequest;
}

const IDLE: LinkRequest = { status: 'idle', error: null };

export const initialState: EmailLinksState = {
  verification: { status: 'idle', email: null, verified: false, error: null },
  resend: IDLE,
  verify: IDLE,
  resetRequest: IDLE,
  resetConfirm: IDLE,
  emailChange: { ...IDLE, newEmail: null, field: null },
};

const working: LinkRequest = { status: 'working', error: null };
const done: LinkRequest = { status: 'done', error: null };
const failed = (message: string): LinkRequest => ({ status: 'failed', error: message });

const emailLinksSlice = createSlice({
  name: EMAIL_LINKS_DOMAIN,
  initialState,
  reducers: {
    emailVerificationRequested(state) {
      state.verification.status = 'loading';
      state.verification.error = null;
    },
    emailVerificationLoaded(state, action: PayloadAction<{ email: string; verified: boolean }>) {
      state.verification = { status: 'loaded', ...action.payload, error: null };
    },
    emailVerificationLoadFailed(state, action: PayloadAction<{ message: string }>) {
      state.verification.status = 'failed';
      state.verification.error = action.payload.message;
    },
    verificationMailRequested(state) {
      state.resend = working;
    },
    verificationMailed(state, action: PayloadAction<{ verified: boolean }>) {
      state.resend = done;
      state.verification.verified = action.payload.verified;
    },
    verificationMailFailed(state, action: PayloadAction<{ message: string }>) {
      state.resend = failed(action.payload.message);
    },
    emailVerifyRequested(state, _action: PayloadAction<{ token: string }>) {
      state.verify = working;
    },
    emailVerified(state) {
      state.verify = done;
      if (state.verification.status === 'loaded') state.verification.verified = true;
    },
    emailVerifyFailed(state, action: PayloadAction<{ message: string }>) {
      state.verify = failed(action.payload.message);
    },
    passwordResetRequested(state, _action: PayloadAction<{ email: string }>) {
      state.resetRequest = working;
    },
    passwordResetMailed(state) {
      state.resetRequest = done;
    },
    passwordResetFailed(state, action: PayloadAction<{ message: string }>) {
      state.resetRequest = failed(action.payload.message);
    },
    /** The sign-in form's "Forgot your password?" was opened again: a fresh request. */
    passwordResetFormShown(state) {
      state.resetRequest = IDLE;
    },
    passwordResetConfirmRequested(state, _action: PayloadAction<{ token: string; password: string }>) {
      state.resetConfirm = working;
    },
    passwordResetConfirmed(state) {
      state.resetConfirm = done;
    },
    passwordResetConfirmFailed(state, action: PayloadAction<{ message: string }>) {
      state.resetConfirm = failed(action.payload.message);
    },
    // The password rides in the action as the change-of-password form's does (sessionsSlice); it is never stored.
    emailChangeRequested(state, _action: PayloadAction<{ currentPassword: string; newEmail: string }>) {
      state.emailChange = { ...working, newEmail: null, field: null };
    },
    emailChangeMailed(state, action: PayloadAction<{ newEmail: string }>) {
      state.emailChange = { ...done, newEmail: action.payload.newEmail, field: null };
    },
    emailChangeFailed(state, action: PayloadAction<{ message: string; field: EmailChangeField | null }>) {
      state.emailChange = { ...failed(action.payload.message), newEmail: null, field: action.payload.field };
    },
  },
  extraReducers: (builder) => {
    // The account's own state goes with it; a link being used does not (a reset signs this device out).
    builder.addCase(signedOut, (state) => {
      state.verification = initialState.verification;
      state.resend = IDLE;
      state.emailChange = initialState.emailChange;
    });
  },
});

export const {
  emailVerificationRequested,
  emailVerificationLoaded,
  emailVerificationLoadFailed,
  verificationMailRequested,
  verificationMailed,
  verificationMailFailed,
  emailVerifyRequested,
  emailVerified,
  emailVerifyFailed,
  passwordResetRequested,
  passwordResetMailed,
  passwordResetFailed,
  passwordResetFormShown,
  passwordResetConfirmRequested,
  passwordResetConfirmed,
  passwordResetConfirmFailed,
  emailChangeRequested,
  emailChangeMailed,
  emailChangeFailed,
} = emailLinksSlice.actions;

export default emailLinksSlice.reducer;

// Injected when this module loads (with the screens and the saga chunk that use it): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof emailLinksSlice> {}
}
emailLinksSlice.injectInto(sharedReducer);

interface WithEmailLinks {
  emailLinks?: EmailLinksState;
}
const of = (state: WithEmailLinks): EmailLinksState => state.emailLinks ?? initialState;
export const selectEmailVerification = (state: WithEmailLinks) => of(state).verification;
export const selectVerificationResend = (state: WithEmailLinks) => of(state).resend;
export const selectEmailVerify = (state: WithEmailLinks) => of(state).verify;
export const selectPasswordResetRequest = (state: WithEmailLinks) => of(state).resetRequest;
export const selectPasswordResetConfirm = (state: WithEmailLinks) => of(state).resetConfirm;
export const selectEmailChange = (state: WithEmailLinks) => of(state).emailChange;
