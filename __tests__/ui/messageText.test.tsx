/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { render } from '@testing-library/react';
import { MessageText, splitLinks } from '@/ui/MessageText';
import { formatRemaining } from '@/ui/time';
import { problemOf } from '@/ui/InvitationViews';

describe('MessageText', () => {
  it('renders script and HTML as the characters they are', () => {
    const { container } = render(
      <MessageText text={'<img src=x onerror=alert(1)><script>alert(2)</script><b>hi</b>'} />,
    );
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror=alert(1)><script>alert(2)</script><b>hi</b>');
  });

  it('makes http(s) addresses links that open safely, without the sentence’s punctuation', () => {
    const { container } = render(<MessageText text="See https://example.com/a?b=1. Or http://x.test!" />);
    const links = [...container.querySelectorAll('a')];
    expect(
      links.map((a) => [
        a.getAttribute('href'),
        a.textContent,
        a.getAttribute('rel'),
        a.getAttribute('target'),
      ]),
    ).toEqual([
      ['https://example.com/a?b=1', 'https://example.com/a?b=1', 'noopener noreferrer nofollow', '_blank'],
      ['http://x.test/', 'http://x.test', 'noopener noreferrer nofollow', '_blank'],
    ]);
    expect(container.textContent).toBe('See https://example.com/a?b=1. Or http://x.test!');
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'ftp://files.test/x',
    'JAVASCRIPT://%0aalert(1)',
  ])('leaves %s as text', (text) => {
    expect(splitLinks(text)).toEqual([{ text }]);
  });
});

describe('formatRemaining', () => {
  const now = 1_000_000_000;
  it.each([
    [2 * 86_400_000 + 4 * 3_600_000, '2 d 4 h'],
    [3 * 3_600_000 + 12 * 60_000, '3 h 12 min'],
    [4 * 60_000 + 5_000, '4 min 05 s'],
  ])('says what is left of %i ms as %s', (left, words) => {
    expect(formatRemaining(now + left, now)).toBe(words);
  });

  it('says nothing once the time has passed', () => {
    expect(formatRemaining(now, now)).toBeNull();
  });
});

describe('problemOf', () => {
  it.each([
    [{ status: 'FAILED_PRECONDITION', message: '', reason: 'invitation-expired' as const }, 'expired'],
    [{ status: 'FAILED_PRECONDITION', message: '', reason: 'invitation-used' as const }, 'used'],
    [{ status: 'PERMISSION_DENIED', message: '', reason: 'invitation-not-yours' as const }, 'notYours'],
    [
      { status: 'PERMISSION_DENIED', message: '', reason: 'email-not-verified' as const },
      'emailNotConfirmed',
    ],
    [
      { status: 'FAILED_PRECONDITION', message: '', reason: 'invitation-not-accepted' as const },
      'notAccepted',
    ],
    [{ status: 'NOT_FOUND', message: '' }, 'notFound'],
    [{ status: 'UNAVAILABLE', message: '' }, 'unavailable'],
  ])('names %j as %s', (failure, kind) => {
    expect(problemOf(failure)).toBe(kind);
  });
});
