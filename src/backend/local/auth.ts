// Sessions with the embedded server: sign up/in/out, the current user, claims from the access token, and the
// auth state shared by every tab (a sign-out in one tab signs out the others).
import { BackendError } from '../ports';
import type { AuthPort, EmailVerificationState, SignInInput, SignUpInput, Unsubscribe } from '../ports';
import type { AuthUser, IdTokenClaims } from '@core/model';
import type { SessionResponse } from '@core/wire';
import { FAILURE_WORDS } from '@core/failureWords';
import { callRoute } from './http';
import type { Fetch } from './http';
import { REFRESH_MARGIN_MS, decodeJwtPayload, sessionFromResponse, withCrossTabLock } from './session';
import type { SessionStore, StoredSession } from './session';

export interface LocalAuth extends AuthPort {
  /** A fresh access token, refreshing first when due; throws UNAUTHENTICATED when signed out. */
  getAccessToken(): Promise<string>;
  /**
   * The access token at once when it is known and not due for a refresh, else null (then getAccessToken): a
   * request made without waiting leaves the page before the page renders (a sent message's latency).
   */
  freshAccessToken(): string | null;
  /** The server refused the session: forget it and tell everyone. */
  handleRejectedSession(): void;
  /**
   * Asks the server whether the session still stands (a refresh, due or not): one it has ended signs this tab
   * out; an unreachable server changes nothing.
   */
  verifySession(): Promise<void>;
}

export function createLocalAuth(deps: {
  baseUrl: string;
  fetch: Fetch;
  sessions: SessionStore;
  now?: () => number;
}): LocalAuth {
  const { baseUrl, sessions } = deps;
  const now = deps.now ?? Date.now;
  const listeners = new Set<(user: AuthUser | null) => void>();
  let current: StoredSession | null = sessions.read();
  let refreshing: Promise<StoredSession | null> | null = null;
  /** The initial state is known once a stored session has been checked (refreshed when it had expired). */
  let ready: Promise<void> | null = null;
  let restored = false;

  const emit = (): void => {
    const user = current?.user ?? null;
    for (const listener of [...listeners]) listener(user);
  };

  const adopt = (session: StoredSession | null): void => {
    const before = current?.user.uid ?? null;
    current = session;
    if ((session?.user.uid ?? null) !== before) emit();
  };

  const signOutLocally = (): void => {
    sessions.clear();
    adopt(null);
  };

  sessions.onExternalChange(() => adopt(sessions.read()));

  async function refresh(force = false): Promise<StoredSession | null> {
    refreshing ??= withCrossTabLock('qupm-session-refresh', async () => {
      // Another tab may have refreshed (or signed out) while this one waited for the lock.
      const stored = sessions.read();
      if (!stored) return null;
      if (!force && stored.expiresAt - REFRESH_MARGIN_MS > now()) return stored;
      try {
        const response = await callRoute(deps.fetch, baseUrl, 'refresh', {
          body: { refreshToken: stored.refreshToken },
        });
        const session = sessionFromResponse(response, now());
        sessions.write(session);
        return session;
      } catch (error) {
        if (error instanceof BackendError && error.status === 'UNAUTHENTICATED') {
          sessions.clear();
          return null;
        }
        throw error;
      }
    }).finally(() => {
      refreshing = null;
    });
    const session = await refreshing;
    adopt(session);
    return session;
  }

  async function restore(): Promise<void> {
    if (!current || current.expiresAt - REFRESH_MARGIN_MS > now()) return;
    try {
      await refresh();
    } catch {
      // Offline or the server is down: keep the stored user so the app opens; requests will retry.
    }
  }

  /** A sign-in or sign-up's answer kept as this device's session. */
  async function startSession(response: Promise<SessionResponse>): Promise<AuthUser> {
    const session = sessionFromResponse(await response, now());
    sessions.write(session);
    adopt(session);
    return session.user;
  }

  const auth: LocalAuth = {
    async signUp(input: SignUpInput) {
      // No session either way: "Check your inbox" (server/services/signUp.ts).
      await callRoute(deps.fetch, baseUrl, 'signUp', { body: input });
    },
    signIn: (input: SignInInput) => startSession(callRoute(deps.fetch, baseUrl, 'signIn', { body: input })),

    async signOut() {
      if (!current) {
        signOutLocally();
        return;
      }
      // The server revokes the session's refresh tokens only for a caller who proves who they are, so the
      // request carries a valid access token (refreshed first if due; a refresh rotates the refresh token).
      const accessToken = await auth.getAccessToken().catch(() => null);
      const session = current;
      signOutLocally();
      if (!session || accessToken === null) return;
      try {
        await callRoute(
          deps.fetch,
          baseUrl,
          'signOut',
          { body: { refreshToken: session.refreshToken } },
          { token: accessToken },
        );
      } catch {
        // The session is gone on this device either way; the server forgets it when it expires.
      }
    },

    currentUser: () => current?.user ?? null,

    async getAccessToken() {
      if (ready) await ready;
      let session = current;
      if (session && session.expiresAt - REFRESH_MARGIN_MS <= now()) session = await refresh();
      if (!session) throw new BackendError('UNAUTHENTICATED', FAILURE_WORDS.signIn);
      return session.accessToken;
    },

    freshAccessToken() {
      if (ready !== null && !restored) return null;
      if (!current || current.expiresAt - REFRESH_MARGIN_MS <= now()) return null;
      return current.accessToken;
    },

    async getIdTokenClaims(): Promise<IdTokenClaims> {
      const claims = decodeJwtPayload(await auth.getAccessToken());
      if (!claims) throw new BackendError('INTERNAL', 'The session token could not be read.');
      return { isAdmin: claims.isAdmin === true };
    },

    handleRejectedSession() {
      signOutLocally();
    },

    async verifySession() {
      if (!current) return;
      try {
        await refresh(true);
      } catch {
        // Offline or the server is down: the session stays until the server can say.
      }
    },

    async getEmailVerification(): Promise<EmailVerificationState> {
      const state = await callRoute(
        deps.fetch,
        baseUrl,
        'emailVerification',
        {},
        { token: await auth.getAccessToken() },
      );
      return { email: state.email, verified: state.emailVerified };
    },

    async sendEmailVerification() {
      await callRoute(
        deps.fetch,
        baseUrl,
        'sendEmailVerification',
        {},
        { token: await auth.getAccessToken() },
      );
    },

    async verifyEmail(token) {
      await callRoute(deps.fetch, baseUrl, 'verifyEmail', { body: { token } });
    },

    async requestPasswordReset(email) {
      await callRoute(deps.fetch, baseUrl, 'requestPasswordReset', { body: { email } });
    },

    async confirmPasswordReset(token, newPassword) {
      const { email } = await callRoute(deps.fetch, baseUrl, 'confirmPasswordReset', {
        body: { token, password: newPassword },
      });
      // The server has ended every session of that account, this device's too.
      if (current && current.user.email === email) signOutLocally();
    },

    async changeEmail(currentPassword, newEmail) {
      await callRoute(
        deps.fetch,
        baseUrl,
        'changeEmail',
        { body: { password: currentPassword, newEmail } },
        { token: await auth.getAccessToken() },
      );
    },

    onAuthStateChanged(listener): Unsubscribe {
      // Each listener hears of a person once, however many times the session is checked.
      let told: string | null | undefined;
      const tell = (user: AuthUser | null): void => {
        if ((user?.uid ?? null) === told) return;
        told = user?.uid ?? null;
        listener(user);
      };
      listeners.add(tell);
      // The stored person is told at once, also while an expired access token is refreshed: a start draws what
      // the device kept for them without waiting for the server, whose refusal then signs them out.
      const stored = current?.user;
      if (stored) void Promise.resolve().then(() => listeners.has(tell) && tell(stored));
      ready ??= restore().finally(() => {
        restored = true;
      });
      void ready.then(() => {
        if (listeners.has(tell)) tell(current?.user ?? null);
      });
      return () => {
        listeners.delete(tell);
      };
    },
  };
  return auth;
}
