// The client's words for a failed request, by (status, reason): one catalogue for both adapters and the screens.
import { ERROR_STATUSES } from '@core/errors';
import { FAILURE_WORDS, failureWords } from '@core/failureWords';

describe('failureWords', () => {
  it('says a backend that cannot be reached is offline', () => {
    expect(failureWords('UNAVAILABLE')).toBe(
      "Can't reach QuPM right now. Check your connection and try again.",
    );
  });

  it('asks to wait after a flood', () => {
    expect(failureWords('RESOURCE_EXHAUSTED')).toBe('Too many attempts. Wait a minute and try again.');
  });

  it('takes the reason’s words before the status’s', () => {
    expect(failureWords('UNAUTHENTICATED')).toBe(FAILURE_WORDS.signInAgain);
    expect(failureWords('UNAUTHENTICATED', 'invalid-credentials')).toBe(FAILURE_WORDS.invalidCredentials);
    expect(failureWords('UNAUTHENTICATED', 'session-expired')).toBe(FAILURE_WORDS.sessionExpired);
    expect(failureWords('ALREADY_EXISTS', 'email-taken')).toBe(FAILURE_WORDS.emailTaken);
  });

  it('falls back to the status’s words for a reason without words of its own', () => {
    expect(failureWords('RESOURCE_EXHAUSTED', 'invitation-used')).toBe(FAILURE_WORDS.tooManyAttempts);
  });

  it('has words for every status, never an empty string', () => {
    for (const status of [...ERROR_STATUSES, 'UNAVAILABLE' as const]) {
      expect(failureWords(status).length).toBeGreaterThan(10);
    }
    expect(failureWords('INTERNAL')).toBe('Something went wrong. Please try again.');
  });
});
