// Email verification. An account whose address is not confirmed (accounts from before sign-up
// confirmed it, or an address changed) can ask for a single-use link valid 24 hours (/verify-email?token=…),
// rate-limited per address and per IP at the route. Until the address is confirmed the account works, but no
// invitation bound to that address is theirs to see or accept (withVerifiedEmail, core/invitations.ts), and no live
// event addressed by email reaches it (server/stream.ts). The same link path finishes a sign-up
// (server/services/signUp.ts): opening it creates the account, its address confirmed.
import { ERROR_WORDS, QupmError } from '../../core/errors';
import { EMAIL_CHANGE_MESSAGES, EMAIL_LINK_MESSAGES } from '../../core/emailLinks';
import { verifyEmailPath } from '../../core/paths';
import type { Caller } from '../../core/permissions';
import { issueEmailToken, redeemEmailToken } from '../auth/emailTokens';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { enqueueMail, mailLink, renderMail } from './mail';
import { redeemSignUp, signUpRefusal } from './signUp';

export type VerificationContext = Pick<ServerContext, 'db' | 'repos' | 'hub' | 'now' | 'mail' | 'mailQueue'>;

/** What the signed-in person's settings show. */
export interface EmailVerificationState {
  email: string;
  emailVerified: boolean;
}

/** "Hello Sam," from a display name, or "Hello," without one. */
export function greeting(displayName: string | null | undefined): string {
  const name = displayName?.trim();
  return name ? `Hello ${name},` : 'Hello,';
}

/** Mails `account` a new confirmation link. Call inside the write transaction that has the reason for it. */
export function mailVerificationLink(
  ctx: Omit<VerificationContext, 'db' | 'hub'>,
  account: { uid: string; email: string; displayName: string | null },
): void {
  const token = issueEmailToken(ctx.repos, {
    uid: account.uid,
    purpose: 'verify-email',
    email: account.email,
    now: ctx.now(),
  });
  const { text, html } = renderMail({
    greeting: greeting(account.displayName),
    paragraphs: [
      `Please confirm that ${account.email} is your email address. Invitations sent to this address can be accepted once it is confirmed.`,
    ],
    action: { label: 'Confirm my email address', url: mailLink(ctx, verifyEmailPath(token)) },
    after: [
      'The link is valid for 24 hours and works once. If you did not create a QuPM account, you can ignore this email.',
    ],
  });
  enqueueMail(ctx, {
    kind: 'verify-email',
    to: account.email,
    subject: 'Confirm your email address for QuPM',
    text,
    html,
  });
}

export function verificationState(ctx: VerificationContext, caller: Caller): EmailVerificationState {
  const account = ctx.repos.users.findAccount(caller.uid);
  if (!account) throw new QupmError('NOT_FOUND', ERROR_WORDS.accountGone);
  return { email: account.email, emailVerified: account.emailVerified };
}

/** POST /api/auth/verify-email/send: a new link, unless the address is confirmed already (then nothing is sent). */
export function sendVerification(ctx: VerificationContext, caller: Caller): EmailVerificationState {
  return write(ctx.db, () => {
    const account = ctx.repos.users.findAccount(caller.uid);
    if (!account) throw new QupmError('NOT_FOUND', ERROR_WORDS.accountGone);
    if (!account.emailVerified) mailVerificationLink(ctx, account);
    return { email: account.email, emailVerified: account.emailVerified };
  });
}

/**
 * POST /api/auth/verify-email {token}: confirms the address the link was sent to (no session needed: the link
 * may be opened on another device). The account's open streams then hear events addressed to it, and its
 * invitations are read again.
 */
export function verifyEmail(ctx: VerificationContext, token: string): EmailVerificationState {
  const now = ctx.now();
  const outcome = write(ctx.db, () => {
    const redeemed = redeemEmailToken(ctx.repos, token, ['verify-email', 'change-email'], now);
    if (redeemed.kind === 'invalid') {
      // Not an account's link: the link that finishes a sign-up, which creates the account (confirmed).
      const signUp = redeemSignUp(ctx, token, now);
      return signUp.kind === 'not-a-sign-up' ? redeemed : ({ kind: 'sign-up', signUp } as const);
    }
    if (redeemed.kind !== 'ok') return redeemed;
    const { uid, email, purpose } = redeemed.record;
    if (purpose === 'change-email') return applyEmailChange(ctx, uid, email, now) ?? redeemed;
    // An address changed since the link was sent is not confirmed by it.
    if (!ctx.repos.users.confirmEmail(uid, email, now)) return { kind: 'invalid' } as const;
    ctx.repos.emailTokens.retire(uid, 'verify-email', now);
    return redeemed;
  });
  switch (outcome.kind) {
    case 'sign-up': {
      const { signUp } = outcome;
      if (signUp.kind !== 'created') throw signUpRefusal(signUp.kind);
      return { email: signUp.email, emailVerified: true };
    }
    case 'invalid':
      throw new QupmError('INVALID_ARGUMENT', EMAIL_LINK_MESSAGES.invalid);
    case 'taken':
      throw new QupmError('FAILED_PRECONDITION', EMAIL_CHANGE_MESSAGES.taken, 'email-taken');
    case 'used':
      throw new QupmError('FAILED_PRECONDITION', EMAIL_LINK_MESSAGES.verifyUsed);
    case 'expired':
      throw new QupmError('FAILED_PRECONDITION', EMAIL_LINK_MESSAGES.verifyExpired);
    case 'ok': {
      const { uid, email } = outcome.record;
      ctx.hub.confirmEmail(uid, email);
      ctx.hub.publish({ uids: [uid] }, { type: 'invitations', data: { changed: true } });
      return { email, emailVerified: true };
    }
  }
}

/**
 * A change-email link replaces the account's address with the one it proved, unless another
 * account took that address meanwhile; the old address is told. Inside the link's transaction; null when done.
 */
function applyEmailChange(
  ctx: VerificationContext,
  uid: string,
  email: string,
  now: number,
): { kind: 'invalid' } | { kind: 'taken' } | null {
  const account = ctx.repos.users.findAccount(uid);
  if (!account) return { kind: 'invalid' };
  const holder = ctx.repos.users.findAccountByEmail(email);
  if (holder && holder.uid !== uid) return { kind: 'taken' };
  ctx.repos.users.changeEmail(uid, email, now);
  ctx.repos.emailTokens.retire(uid, 'change-email', now);
  ctx.repos.emailTokens.retire(uid, 'verify-email', now);
  ctx.repos.emailTokens.retire(uid, 'reset-password', now);
  const { text, html } = renderMail({
    greeting: greeting(account.displayName),
    paragraphs: [
      `The email address of your QuPM account is now ${email}. This address (${account.email}) no longer signs in.`,
    ],
    after: ['If you did not make this change, contact the people who run this QuPM at once.'],
  });
  enqueueMail(ctx, {
    kind: 'email-changed',
    to: account.email,
    subject: 'Your QuPM email address was changed',
    text,
    html,
  });
  return null;
}

/**
 * The caller with their address and whether it is confirmed, read now (not from the access token, which may
 * predate a confirmation or a change of address): for invitations bound to an email.
 */
export function withVerifiedEmail<C extends Caller>(ctx: Pick<ServerContext, 'repos'>, caller: C): C {
  const account = ctx.repos.users.findAccount(caller.uid);
  if (!account) return { ...caller, emailVerified: false };
  return { ...caller, email: account.email, emailVerified: account.emailVerified };
}
