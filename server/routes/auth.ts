// POST /api/auth/signup | signin | refresh | signout, (issue #15 parts 2–3) the mailed links: verify-email (send,
// confirm, state) and password-reset (ask, confirm), and (parts 4–5) the caller's sessions, password and email
// (core/wire.ts API).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  emailChangeBody,
  passwordChangeBody,
  passwordResetBody,
  passwordResetConfirmBody,
  refreshBody,
  signInBody,
  signUpBody,
  verifyEmailBody,
} from '../../core/schemas';
import type { ServerContext } from '../context';
import { idParams, parse } from '../http';
import { sendVerification, verificationState, verifyEmail } from '../services/emailVerification';
import { confirmPasswordReset, requestPasswordReset } from '../services/passwordReset';
import { requestEmailChange } from '../services/emailChange';
import { requestSignUp } from '../services/signUp';

/** The user agent a session is started from (what the sessions list names it by). */
const userAgentOf = (request: FastifyRequest): string => {
  const value = request.headers['user-agent'];
  return typeof value === 'string' ? value : '';
};

export function registerAuthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/auth/signup', async (request) => {
    const body = parse(signUpBody, request.body);
    await ctx.guards.authPerIp(request, request.ip);
    await ctx.guards.auth(request, `${request.ip}|${body.email}`);
    // It mails the address whether or not it has an account: limited as every mailed link is.
    await ctx.guards.mailPerIp(request, request.ip);
    await ctx.guards.mailPerAddress(request, body.email);
    // The same answer whether the address has an account or not: no session, "Check your inbox".
    await requestSignUp(ctx, body);
    return { success: true };
  });

  app.post('/api/auth/signin', async (request) => {
    const body = parse(signInBody, request.body);
    await ctx.guards.authPerIp(request, request.ip);
    await ctx.guards.auth(request, `${request.ip}|${body.email}`);
    return ctx.sessions.signIn(body, userAgentOf(request));
  });

  app.post('/api/auth/refresh', async (request) => {
    const body = parse(refreshBody, request.body);
    await ctx.guards.refresh(request, request.ip);
    return ctx.sessions.refresh(body.refreshToken, userAgentOf(request));
  });

  app.post('/api/auth/signout', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(refreshBody, request.body);
    await ctx.guards.refresh(request, request.ip);
    ctx.sessions.signOut(caller, body.refreshToken);
    return { success: true };
  });

  app.get('/api/auth/sessions', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return { sessions: ctx.sessions.listSessions(caller) };
  });

  // Registered before /:id so the static path wins (find-my-way prefers static segments anyway).
  app.post('/api/auth/sessions/revoke-others', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.refresh(request, request.ip);
    return { revoked: ctx.sessions.revokeOtherSessions(caller) };
  });

  app.delete('/api/auth/sessions/:id', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.refresh(request, request.ip);
    ctx.sessions.revokeSession(caller, id);
    return { success: true };
  });

  app.post('/api/auth/password', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(passwordChangeBody, request.body);
    // Like sign-in: a guessed current password costs the same attempts, per IP and per account.
    await ctx.guards.authPerIp(request, request.ip);
    await ctx.guards.auth(request, `${request.ip}|${caller.email}`);
    const revoked = await ctx.sessions.changePassword(caller, body);
    return { success: true, revoked };
  });

  // issue #15 part 2 -----------------------------------------------------------------------------------------
  app.get('/api/auth/verify-email', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return verificationState(ctx, caller);
  });

  app.post('/api/auth/verify-email/send', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.mailPerIp(request, request.ip);
    await ctx.guards.mailPerAddress(request, caller.email);
    return sendVerification(ctx, caller);
  });

  app.post('/api/auth/verify-email', async (request) => {
    const body = parse(verifyEmailBody, request.body);
    await ctx.guards.authPerIp(request, request.ip);
    return verifyEmail(ctx, body.token);
  });

  // issue #15 part 3 -----------------------------------------------------------------------------------------
  app.post('/api/auth/password-reset', async (request) => {
    const body = parse(passwordResetBody, request.body);
    await ctx.guards.mailPerIp(request, request.ip);
    await ctx.guards.mailPerAddress(request, body.email);
    // The same answer whether an account has this address or not.
    requestPasswordReset(ctx, body.email);
    return { success: true };
  });

  app.post('/api/auth/password-reset/confirm', async (request) => {
    const body = parse(passwordResetConfirmBody, request.body);
    await ctx.guards.authPerIp(request, request.ip);
    return { success: true, ...(await confirmPasswordReset(ctx, body.token, body.password)) };
  });

  // issue #15 part 4: a new address, confirmed by the link mailed to it before it replaces the old one.
  app.post('/api/auth/email', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(emailChangeBody, request.body);
    await ctx.guards.auth(request, `${request.ip}|${caller.email}`);
    await ctx.guards.mailPerIp(request, request.ip);
    await ctx.guards.mailPerAddress(request, body.newEmail);
    return requestEmailChange(ctx, caller, body);
  });
}
