// The signed-in person (spec §3 "In-app user state", §4 auth changes, §6 roles), plus the two facts of their
// user document the push gate needs (spec §5). Plain data only.
import { createSelector, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { AuthUser, IdTokenClaims, NotificationSettings, UserDoc } from '@core/model';

/** 'unknown' until the backend has said whether a session exists. */
export type AuthStatus = 'unknown' | 'signedOut' | 'loading' | 'signedIn';

export interface UserState {
  status: AuthStatus;
  authUser: AuthUser | null;
  isConsultant: boolean;
  effectiveConId: string;
  isAdmin: boolean;
  nickname: string;
  credits: number;
  passCount: number;
  domainId: string | undefined;
  /** spec §5: token work runs only if the user document exists … */
  userDocExists: boolean;
  /** … and its notification settings allow push. */
  notificationSettings: NotificationSettings | null;
  /**
   * Absent while the figures are live. Else they are the last known, kept on this device, as of this time; 0: the
   * backend could not be read and nothing is known (shown as unknown, never as zero).
   */
  asOf?: number;
}

/** The state of a person with no readable user document (spec §4 defaults; spec §9 initial values). */
export type SignedInUserState = Omit<UserState, 'status'>;

export const initialState: UserState = {
  status: 'unknown',
  authUser: null,
  isConsultant: false,
  // spec §9: effectiveConId '', credits 0, passCount 0.
  effectiveConId: '',
  isAdmin: false,
  nickname: '',
  credits: 0,
  passCount: 0,
  domainId: undefined,
  userDocExists: false,
  notificationSettings: null,
};

/** spec §4: a fallback non-admin, non-consultant state. */
export function fallbackUserState(authUser: AuthUser): SignedInUserState {
  const { status: _status, ...defaults } = initialState;
  return { ...defaults, authUser };
}

/**
 * The in-app state for a signed-in person: admin from the claim, consultant from `isOwner`, nickname falling back
 * to the document's display name, then '' (spec §3, §6). A missing or unreadable document gives the spec's
 * defaults (spec §4: isConsultant false, nickname empty, domainId undefined).
 */
export function buildUserState(
  authUser: AuthUser,
  doc: UserDoc | null,
  claims: IdTokenClaims,
): SignedInUserState {
  const isConsultant = doc?.isOwner === true;
  return {
    authUser,
    isConsultant,
    effectiveConId: isConsultant ? authUser.uid : (doc?.effectiveConId ?? ''),
    isAdmin: claims.isAdmin === true,
    nickname: doc?.nickname || doc?.displayName || '',
    credits: doc?.credits ?? 0,
    passCount: doc?.passCount ?? 0,
    domainId: doc?.domainId,
    userDocExists: doc !== null,
    notificationSettings: doc?.notificationSettings ?? null,
  };
}

const userSlice = createSlice({
  name: 'user',
  initialState,
  reducers: {
    /** spec §4: signed out clears the user state. */
    signedOut() {
      return { ...initialState, status: 'signedOut' as const };
    },
    signedIn(_state, action: PayloadAction<{ authUser: AuthUser }>) {
      return { ...initialState, status: 'loading' as const, authUser: action.payload.authUser };
    },
    /** The account is read (user document and claims): the person is signed in with everything known. */
    accountLoaded(state, action: PayloadAction<SignedInUserState>) {
      // A late answer for an account that is no longer signed in is dropped.
      if (state.authUser?.uid !== action.payload.authUser?.uid) return state;
      // Unread (offline), the document leaves the last known figures on screen.
      if (action.payload.asOf === 0 && state.asOf) return { ...state, status: 'signedIn' as const };
      return { ...action.payload, status: 'signedIn' as const };
    },
    /** The last known state kept on this device, shown while the backend has not answered (or could not). */
    lastKnownShown(state, action: PayloadAction<SignedInUserState>) {
      if (
        (state.status === 'loading' || state.asOf === 0) &&
        state.authUser?.uid === action.payload.authUser?.uid
      )
        return { ...action.payload, status: 'signedIn' as const };
    },
    /** The user document changed (a profile save, an activation's balances, a role set by an admin). */
    docChanged(state, action: PayloadAction<{ doc: UserDoc }>) {
      const { doc } = action.payload;
      if (!state.authUser || state.authUser.uid !== doc.uid) return;
      const next = buildUserState(state.authUser, doc, { isAdmin: state.isAdmin });
      return { ...next, status: state.status };
    },
  },
});

export const { signedOut, signedIn, accountLoaded, docChanged, lastKnownShown } = userSlice.actions;
export default userSlice.reducer;

interface WithUser {
  user: UserState;
}
export const selectUser = (state: WithUser): UserState => state.user;
export const selectAuthStatus = (state: WithUser): AuthStatus => state.user.status;
export const selectAuthUser = (state: WithUser): AuthUser | null => state.user.authUser;
export const selectUid = (state: WithUser): string | null => state.user.authUser?.uid ?? null;
export const selectIsAdmin = (state: WithUser): boolean => state.user.isAdmin;
export const selectIsConsultant = (state: WithUser): boolean => state.user.isConsultant;
export const selectNotificationSettings = (state: WithUser): NotificationSettings | null =>
  state.user.notificationSettings;
/** spec §6: admin from the claim, consultant from isOwner, everyone else a regular user. */
export const selectRole = createSelector(
  [selectIsAdmin, selectIsConsultant],
  (isAdmin, isConsultant): 'admin' | 'consultant' | 'user' =>
    isAdmin ? 'admin' : isConsultant ? 'consultant' : 'user',
);
