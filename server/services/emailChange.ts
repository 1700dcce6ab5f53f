// Change of email: the signed-in person gives their current password and a new address; a
// single-use link valid 24 hours is mailed to the new address, and only when it is opened (/verify-email, the
// same screen as a confirmation) does the new address replace the old one (emailVerification.ts verifyEmail),
// which is then told. Until then nothing changes: sign-in, invitations and mail still use the old address.
import { ERROR_WORDS, QupmError } from '../../core/errors';
import { sameEmail } from '../../core/email';
import { EMAIL_CHANGE_MESSAGES } from '../../core/emailLinks';
import { verifyEmailPath } from '../../core/paths';
import type { Caller } from '../../core/permissions';
import { issueEmailToken } from '../auth/emailTokens';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { greeting } from './emailVerification';
import { enqueueMail, mailLink, renderMail } from './mail';

export type EmailChangeContext = Pick<
  ServerContext,
  'db' | 'repos' | 'now' | 'mail' | 'mailQueue' | 'passwords'
>;

/** POST /api/auth/email {password, newEmail}: mails the new address a link that makes the change. */
export async function requestEmailChange(
  ctx: EmailChangeContext,
  caller: Caller,
  input: { password: string; newEmail: string },
): Promise<{ email: string }> {
  const account = ctx.repos.users.findAccount(caller.uid);
  if (!account) throw new QupmError('NOT_FOUND', ERROR_WORDS.accountGone);
  if (!(await ctx.passwords.verify(input.password, account.passwordHash))) {
    throw new QupmError('PERMISSION_DENIED', EMAIL_CHANGE_MESSAGES.wrongPassword, 'invalid-credentials');
  }
  if (sameEmail(input.newEmail, account.email)) {
    throw new QupmError('INVALID_ARGUMENT', EMAIL_CHANGE_MESSAGES.same);
  }
  write(ctx.db, () => {
    if (ctx.repos.users.findAccountByEmail(input.newEmail)) {
      throw new QupmError('ALREADY_EXISTS', EMAIL_CHANGE_MESSAGES.taken, 'email-taken');
    }
    const token = issueEmailToken(ctx.repos, {
      uid: account.uid,
      purpose: 'change-email',
      email: input.newEmail,
      now: ctx.now(),
    });
    const { text, html } = renderMail({
      greeting: greeting(account.displayName),
      paragraphs: [
        `You asked to sign in to QuPM with ${input.newEmail} instead of ${account.email}. Confirm that this address is yours to make the change.`,
      ],
      action: { label: 'Confirm my new email address', url: mailLink(ctx, verifyEmailPath(token)) },
      after: ['The link is valid for 24 hours and works once. Until it is used, nothing changes.'],
    });
    enqueueMail(ctx, {
      kind: 'change-email',
      to: input.newEmail,
      subject: 'Confirm your new email address for QuPM',
      text,
      html,
    });
  });
  return { email: input.newEmail };
}
