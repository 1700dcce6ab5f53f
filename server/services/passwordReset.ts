// Password reset. Asking mails a single-use link valid 1 hour (/reset-password?token=…) when an
// account has the address, and nothing otherwise; the answer is the same either way (rate-limited per address and
// per IP, at the route). Using the link sets the new password, confirms the address (the link proved it), and
// ends every session of the account: refresh tokens revoked, access tokens refused at once, live streams closed
// and the push tokens their devices saved deleted.
import { QupmError } from '../../core/errors';
import { EMAIL_LINK_MESSAGES } from '../../core/emailLinks';
import { resetPasswordPath } from '../../core/paths';
import { issueEmailToken, redeemEmailToken } from '../auth/emailTokens';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { greeting } from './emailVerification';
import { enqueueMail, mailLink, renderMail } from './mail';

export type ResetContext = Pick<
  ServerContext,
  'db' | 'repos' | 'hub' | 'now' | 'mail' | 'mailQueue' | 'passwords' | 'sessions'
>;

/** POST /api/auth/password-reset {email}: a link to the account with this address, if there is one. */
export function requestPasswordReset(ctx: ResetContext, email: string): void {
  write(ctx.db, () => {
    const account = ctx.repos.users.findAccountByEmail(email);
    if (!account) return;
    const token = issueEmailToken(ctx.repos, {
      uid: account.uid,
      purpose: 'reset-password',
      email: account.email,
      now: ctx.now(),
    });
    const { text, html } = renderMail({
      greeting: greeting(account.displayName),
      paragraphs: [`Someone asked to choose a new password for the QuPM account ${account.email}.`],
      action: { label: 'Choose a new password', url: mailLink(ctx, resetPasswordPath(token)) },
      after: [
        'The link is valid for 1 hour and works once. Choosing a new password signs you out everywhere.',
        'If you did not ask for this, you can ignore this email: your password stays as it is.',
      ],
    });
    enqueueMail(ctx, {
      kind: 'reset-password',
      to: account.email,
      subject: 'Choose a new password for QuPM',
      text,
      html,
    });
  });
}

/** POST /api/auth/password-reset/confirm {token, password}. Answers the account's address (to sign in with). */
export async function confirmPasswordReset(
  ctx: ResetContext,
  token: string,
  password: string,
): Promise<{ email: string }> {
  // scrypt before the transaction: a write transaction never waits on the thread pool.
  const passwordHash = await ctx.passwords.hash(password);
  const now = ctx.now();
  const outcome = write(ctx.db, () => {
    const redeemed = redeemEmailToken(ctx.repos, token, 'reset-password', now);
    if (redeemed.kind !== 'ok') return { redeemed, ended: [] as string[] };
    const { uid, email } = redeemed.record;
    const account = ctx.repos.users.findAccount(uid);
    // The address changed since the link was sent: the link no longer speaks for the account.
    if (!account || account.email !== email) return { redeemed: { kind: 'invalid' } as const, ended: [] };
    ctx.repos.users.setPasswordHash(uid, passwordHash);
    ctx.repos.users.confirmEmail(uid, email, now);
    ctx.repos.emailTokens.retire(uid, 'reset-password', now);
    // Every session ends: refresh tokens revoked, their devices' push tokens deleted.
    const ended = ctx.sessions.endAllInTransaction(uid, now);
    const { text, html } = renderMail({
      greeting: greeting(account.displayName),
      paragraphs: [
        `The password of your QuPM account ${email} was just changed with a reset link, and every device was signed out.`,
      ],
      after: ['If this was not you, ask for a new reset link from the sign-in page at once.'],
    });
    enqueueMail(ctx, {
      kind: 'password-changed',
      to: email,
      subject: 'Your QuPM password was changed',
      text,
      html,
    });
    return { redeemed, ended };
  });
  const { redeemed, ended } = outcome;
  switch (redeemed.kind) {
    case 'invalid':
      throw new QupmError('INVALID_ARGUMENT', EMAIL_LINK_MESSAGES.invalid);
    case 'used':
      throw new QupmError('FAILED_PRECONDITION', EMAIL_LINK_MESSAGES.resetUsed);
    case 'expired':
      throw new QupmError('FAILED_PRECONDITION', EMAIL_LINK_MESSAGES.resetExpired);
    case 'ok':
      // Access tokens refused from now on, live streams closed.
      ctx.sessions.announceEnded(ended);
      ctx.hub.confirmEmail(redeemed.record.uid, redeemed.record.email);
      return { email: redeemed.record.email };
  }
}
