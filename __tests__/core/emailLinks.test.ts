import { EMAIL_LINK_TTL_MS, isLinkToken } from '@core/emailLinks';
import { randomBytes } from 'node:crypto';

describe('isLinkToken', () => {
  it("accepts the embedded server's tokens and Firebase's action codes", () => {
    for (let i = 0; i < 50; i += 1) expect(isLinkToken(randomBytes(32).toString('base64url'))).toBe(true);
    expect(isLinkToken('kY3h9S0mXc2Gq1-_Vb7nWd8Zr5Tj4Lp6Oa0Ue2Iy3Hs9Fq1Nc8Mx7Bv')).toBe(true);
  });

  it('refuses what could not be one: short, long, spaces, other characters', () => {
    for (const text of [
      '',
      'short',
      'a'.repeat(201),
      `${'a'.repeat(30)} b`,
      `${'a'.repeat(30)}=`,
      `${'a'.repeat(30)}\n`,
    ]) {
      expect(isLinkToken(text)).toBe(false);
    }
  });
});

describe('EMAIL_LINK_TTL_MS', () => {
  it("is the issue's 24 hours for a confirmation and 1 hour for a reset", () => {
    expect(EMAIL_LINK_TTL_MS['verify-email']).toBe(24 * 60 * 60 * 1000);
    expect(EMAIL_LINK_TTL_MS['reset-password']).toBe(60 * 60 * 1000);
  });
});
