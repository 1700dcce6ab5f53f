// Sign-up that tells nobody whether an address has an account. POST /api/auth/signup answers the same for a new
// address and a taken one, and starts no session either way (a session for one and not the other would tell):
//   - a new address gets a link (/verify-email?token=…, 24 hours, once) that creates the account, its address
//     confirmed by the opening; until then there is no account, so a sign-in is refused as for any unknown one;
//   - a taken address's owner is told that someone tried to sign up with it, with a link to choose a new password
//     (they may have forgotten theirs), at most once an hour (core/emailLinks.ts SIGN_UP_NOTICE_INTERVAL_MS).
// The password is hashed in both cases, so the answer takes as long. The route limits how often an address and
// an IP may ask, equally for both (mailPerAddress, mailPerIp, and sign-in's own).
import { QupmError } from '../../core/errors';
import { EMAIL_LINK_MESSAGES, EMAIL_LINK_TTL_MS, SIGN_UP_NOTICE_INTERVAL_MS } from '../../core/emailLinks';
import { resetPasswordPath, verifyEmailPath } from '../../core/paths';
import { issueEmailToken } from '../auth/emailTokens';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { hashSecret, newDocumentId, newSecret } from '../ids';
import { greeting } from './emailVerification';
import { enqueueMail, mailLink, renderMail } from './mail';

export type SignUpContext = Pick<ServerContext, 'db' | 'repos' | 'now' | 'mail' | 'mailQueue' | 'passwords'>;

/** The mail kinds (mail_jobs.kind) of the two answers. */
export const SIGN_UP_MAIL = { link: 'sign-up', notice: 'sign-up-attempt' } as const;

/**
 * POST /api/auth/signup: mails the address the link that creates its account, or its owner a notice. Answers
 * nothing either way. The email is normalized (core/schemas.ts signUpBody).
 */
export async function requestSignUp(
  ctx: SignUpContext,
  input: { email: string; password: string; displayName?: string },
): Promise<void> {
  // scrypt before the transaction (a write never waits on the thread pool), and for a taken address too.
  const passwordHash = await ctx.passwords.hash(input.password);
  write(ctx.db, () => {
    const now = ctx.now();
    ctx.repos.signUps.pruneExpiredBefore(now - EMAIL_LINK_TTL_MS['sign-up'] * 7);
    const owner = ctx.repos.users.findAccountByEmail(input.email);
    if (owner) {
      mailSignUpNotice(ctx, owner, now);
      return;
    }
    const token = newSecret();
    ctx.repos.signUps.insert({
      tokenHash: hashSecret(token),
      email: input.email,
      passwordHash,
      displayName: input.displayName ?? null,
      createdAt: now,
      expiresAt: now + EMAIL_LINK_TTL_MS['sign-up'],
    });
    const { text, html } = renderMail({
      greeting: greeting(input.displayName),
      paragraphs: [
        `Someone, we hope you, asked to create a QuPM account with ${input.email}. Open the link to confirm that this is your address and finish creating your account.`,
      ],
      action: { label: 'Create my account', url: mailLink(ctx, verifyEmailPath(token)) },
      after: [
        'The link is valid for 24 hours and works once. If you did not ask for this, ignore this email: no account is created.',
      ],
    });
    enqueueMail(ctx, {
      kind: SIGN_UP_MAIL.link,
      to: input.email,
      subject: 'Finish creating your QuPM account',
      text,
      html,
    });
  });
}

/** Inside the sign-up's transaction: the owner of a taken address hears of the attempt, once an hour at most. */
function mailSignUpNotice(
  ctx: SignUpContext,
  owner: { uid: string; email: string; displayName: string | null },
  now: number,
): void {
  if (ctx.repos.signUps.mailedSince(SIGN_UP_MAIL.notice, owner.email, now - SIGN_UP_NOTICE_INTERVAL_MS))
    return;
  const token = issueEmailToken(ctx.repos, {
    uid: owner.uid,
    purpose: 'reset-password',
    email: owner.email,
    now,
  });
  const { text, html } = renderMail({
    greeting: greeting(owner.displayName),
    paragraphs: [
      `Someone just tried to create a QuPM account with ${owner.email}. You already have one, so nothing was created and nothing of yours changed.`,
      'If it was you, sign in as usual. If you have forgotten your password, choose a new one:',
    ],
    action: { label: 'Choose a new password', url: mailLink(ctx, resetPasswordPath(token)) },
    after: [
      'The link is valid for 1 hour and works once. If it was not you, you can ignore this email: your account and password stay as they are.',
    ],
  });
  enqueueMail(ctx, {
    kind: SIGN_UP_MAIL.notice,
    to: owner.email,
    subject: 'Someone tried to create a QuPM account with your address',
    text,
    html,
  });
}

export type SignUpRedeemed =
  | { kind: 'created'; uid: string; email: string }
  | { kind: 'not-a-sign-up' }
  | { kind: 'used' | 'expired' | 'taken' };

/**
 * Inside the verify-email transaction: a sign-up link creates its account, address confirmed, and spends the
 * address's other sign-up links. 'not-a-sign-up' for a token no sign-up issued (the caller says it is invalid).
 */
export function redeemSignUp(ctx: Pick<SignUpContext, 'repos'>, token: string, now: number): SignUpRedeemed {
  const request = ctx.repos.signUps.find(hashSecret(token));
  if (!request) return { kind: 'not-a-sign-up' };
  if (request.usedAt !== null) return { kind: 'used' };
  if (request.expiresAt <= now) return { kind: 'expired' };
  // Another link for the address made the account first (or someone registered it meanwhile).
  if (ctx.repos.users.findAccountByEmail(request.email)) return { kind: 'taken' };
  if (!ctx.repos.signUps.markUsed(request.tokenHash, now)) return { kind: 'used' };
  const uid = newDocumentId();
  ctx.repos.users.insert({
    uid,
    email: request.email,
    passwordHash: request.passwordHash,
    createdAt: now,
    emailVerifiedAt: now,
    ...(request.displayName !== null ? { displayName: request.displayName } : {}),
  });
  ctx.repos.signUps.retireFor(request.email, now);
  return { kind: 'created', uid, email: request.email };
}

/** A sign-up link that did not create an account, in words a person can act on. */
export function signUpRefusal(kind: 'used' | 'expired' | 'taken'): QupmError {
  switch (kind) {
    case 'used':
      return new QupmError('FAILED_PRECONDITION', EMAIL_LINK_MESSAGES.signUpUsed);
    case 'expired':
      return new QupmError('FAILED_PRECONDITION', EMAIL_LINK_MESSAGES.signUpExpired);
    case 'taken':
      return new QupmError('FAILED_PRECONDITION', EMAIL_LINK_MESSAGES.signUpTaken, 'email-taken');
  }
}
