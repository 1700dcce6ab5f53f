// Words for a person when an auth request fails: by reason first, then by status; never a raw server string for
// anything but a validation message the server phrased for people.
import { isEmail } from '@core/email';
import { LIMITS } from '@core/limits';
import type { AuthFailure } from '@/store/authSlice';

export function describeAuthFailure(failure: AuthFailure, kind: 'signIn' | 'signUp' | 'signOut'): string {
  switch (failure.reason) {
    case 'invalid-credentials':
      return "That email and password don't match. Check them and try again.";
    default:
      break;
  }
  switch (failure.status) {
    case 'RESOURCE_EXHAUSTED':
      return 'Too many attempts. Wait a minute and try again.';
    case 'UNAVAILABLE':
      return "Can't reach QuPM right now. Check your connection and try again.";
    case 'INVALID_ARGUMENT':
      return kind === 'signUp'
        ? `Check your details: a valid email, and a password of at least ${LIMITS.passwordMin} characters.`
        : 'Check your email and password.';
    case 'UNAUTHENTICATED':
      return "That email and password don't match. Check them and try again.";
    default:
      return 'Something went wrong. Please try again.';
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
