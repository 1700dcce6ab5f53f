// /api/auth/…: sign-up, sign-in, refresh and sign-out; the mailed links (verify-email: send, confirm, state;
// password-reset: ask, confirm); the caller's sessions, password and email (core/wire.ts).
import type { FastifyRequest } from 'fastify';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { sendVerification, verificationState, verifyEmail } from '../services/emailVerification';
import { confirmPasswordReset, requestPasswordReset } from '../services/passwordReset';
import { requestEmailChange } from '../services/emailChange';
import { requestSignUp } from '../services/signUp';

/** The user agent a session is started from (what the sessions list names it by). */
const userAgentOf = (request: FastifyRequest): string => {
  const value = request.headers['user-agent'];
  return typeof value === 'string' ? value : '';
};

export const authRoutes = (ctx: ServerContext) =>
  ({
    signUp: {
      // The same answer whether the address has an account or not: no session, "Check your inbox".
      handle: async ({ body }) => {
        await requestSignUp(ctx, body);
        return { success: true };
      },
    },
    signIn: { handle: ({ body, request }) => ctx.sessions.signIn(body, userAgentOf(request)) },
    refresh: { handle: ({ body, request }) => ctx.sessions.refresh(body.refreshToken, userAgentOf(request)) },
    signOut: {
      handle: ({ caller, body }) => {
        ctx.sessions.signOut(caller, body.refreshToken);
        return { success: true };
      },
    },
    listSessions: { handle: ({ caller }) => ({ sessions: ctx.sessions.listSessions(caller) }) },
    revokeOtherSessions: { handle: ({ caller }) => ({ revoked: ctx.sessions.revokeOtherSessions(caller) }) },
    revokeSession: {
      handle: ({ caller, params }) => {
        ctx.sessions.revokeSession(caller, params.id);
        return { success: true };
      },
    },
    changePassword: {
      handle: async ({ caller, body }) => ({
        success: true,
        revoked: await ctx.sessions.changePassword(caller, body),
      }),
    },

    emailVerification: { handle: ({ caller }) => verificationState(ctx, caller) },
    sendEmailVerification: { handle: ({ caller }) => sendVerification(ctx, caller) },
    verifyEmail: { handle: ({ body }) => verifyEmail(ctx, body.token) },
    requestPasswordReset: {
      handle: ({ body }) => {
        // The same answer whether an account has this address or not.
        requestPasswordReset(ctx, body.email);
        return { success: true };
      },
    },
    confirmPasswordReset: {
      handle: async ({ body }) => ({
        success: true,
        ...(await confirmPasswordReset(ctx, body.token, body.password)),
      }),
    },
    // A new address, confirmed by the link mailed to it before it replaces the old one.
    changeEmail: { handle: ({ caller, body }) => requestEmailChange(ctx, caller, body) },
  }) satisfies Partial<RouteHandlers>;
