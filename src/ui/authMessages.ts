// Words for a person when an auth request fails: by reason first, then by status; never a raw server string for
// anything but a validation message the server phrased for people.
import { isEmail } from '@core/email';
import { failureWords } from '@core/failureWords';
import type { FailureStatus } from '@core/failureWords';
import { LIMITS } from '@core/limits';
import type { AuthFailure } from '@/store/authSlice';

export function describeAuthFailure(failure: AuthFailure, kind: 'signIn' | 'signUp' | 'signOut'): string {
  // A taken address is never told apart at sign-up (docs/decisions/auth.md): it reads as any other failure.
  if (failure.reason === 'invalid-credentials')
    return failureWords(failure.status as FailureStatus, failure.reason);
  switch (failure.status) {
    case 'INVALID_ARGUMENT':
      return kind === 'signUp'
        ? `Check your details: a valid email, and a password of at least ${LIMITS.passwordMin} characters.`
        : 'Check your email and password.';
    case 'UNAUTHENTICATED':
      // Whatever else a refused sign-in says, to a person it is this (never which of the two is wrong).
      return failureWords('UNAUTHENTICATED', 'invalid-credentials');
    default:
      // A status the catalogue does not know reads as "Something went wrong".
      return failureWords(failure.status as FailureStatus);
  }
}

/** Checks a form before it is sent, so the obvious mistakes are named at once. */
export function validateAuthForm(
  kind: 'signIn' | 'signUp',
  values: { email: string; password: string },
): string | null {
  if (!isEmail(values.email)) return 'Enter your email address, like name@example.com.';
  if (values.password.length === 0) return 'Enter your password.';
  if (kind === 'signUp' && values.password.length < LIMITS.passwordMin)
    return `Choose a password of at least ${LIMITS.passwordMin} characters.`;
  if (values.password.length > LIMITS.passwordMax)
    return `That password is too long (${LIMITS.passwordMax} characters at most).`;
  return null;
}
