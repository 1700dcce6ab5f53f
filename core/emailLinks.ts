// The single-use links QuPM mails: how long each is good for, the shape of the token they
// carry, and the words a person reads about them. Shared by the embedded server, both adapters and the screens.

const HOUR = 60 * 60 * 1000;

/**
 * A verification link is good for 24 hours; a password-reset link for 1 hour; the link that finishes a sign-up
 * (there is no account until it is opened) for 24 hours.
 */
export const EMAIL_LINK_TTL_MS = {
  'verify-email': 24 * HOUR,
  'reset-password': HOUR,
  'change-email': 24 * HOUR,
  'sign-up': 24 * HOUR,
} as const;

/**
 * "Someone tried to create an account with your address" goes to an address at most this often: enough to tell
 * its owner, never a way to flood their inbox (sign-up's own answer is the same either way).
 */
export const SIGN_UP_NOTICE_INTERVAL_MS = HOUR;

/**
 * A link's token: the embedded server's are 32 random bytes in base64url (43 characters); Firebase's action codes
 * (oobCode) are of the same alphabet and a little longer.
 */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

/** Whether `text` can be a link's token (anything else is refused before it reaches a backend). */
export function isLinkToken(text: string): boolean {
  return LINK_TOKEN_PATTERN.test(text);
}

export const EMAIL_LINK_MESSAGES = {
  invalid: 'This link is not valid. Check that you opened the whole link from the latest email we sent you.',
  verifyExpired: 'This confirmation link has expired. Sign in and ask for a new one in Settings.',
  verifyUsed: 'This confirmation link has already been used.',
  resetExpired: 'This password reset link has expired. Ask for a new one from the sign-in page.',
  resetUsed: 'This password reset link has already been used. Ask for a new one from the sign-in page.',
  resetSent:
    'If an account uses this address, we have sent it a link to choose a new password. It is valid for 1 hour.',
  verificationSent: 'We have sent you a new confirmation link. It is valid for 24 hours.',
  tooManyMails:
    'We have already sent several emails for this. Check your inbox and spam folder, or try again in 15 minutes.',
  signUpExpired: 'This link to finish creating your account has expired. Create your account again.',
  signUpUsed: 'This link was already used: your account is ready. Sign in with your email and password.',
  signUpTaken:
    'There is already an account with this address. Sign in, or choose a new password from the sign-in page.',
} as const;

/** A change of email, refused. */
export const EMAIL_CHANGE_MESSAGES = {
  wrongPassword: 'That is not your current password.',
  same: 'This is already your email address.',
  taken: 'An account with this email already exists.',
} as const;
