import { browserHostname, isLocalOrIpHost, isPushEnabledForHost } from '@/platform';
import { defineGlobal, restoreGlobals, throwingGetter } from './fakes';

afterEach(restoreGlobals);

describe('isLocalOrIpHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'app.localhost',
    '127.0.0.1',
    '127.10.20.30',
    '0.0.0.0',
    '192.168.1.20',
    '10.0.0.5',
    '127.1',
    '::1',
    '[::1]',
    '[2001:db8::1]',
    '2001:db8::1',
    'fe80::1%en0',
    '::ffff:192.168.0.1',
    '::',
    '',
  ])('treats %p as a development host', (hostname) => {
    expect(isLocalOrIpHost(hostname)).toBe(true);
  });

  it.each(['localhost:8080', '127.0.0.1:3000', '[::1]:8080'])(
    'treats %p as a development host when a port is passed along',
    (host) => {
      expect(isLocalOrIpHost(host)).toBe(true);
    },
  );

  it.each([
    'qupm.example.com',
    'app.qupm.io',
    'localhost.example.com',
    'mylocalhost',
    '127.example.com',
    '1password.com',
    'cafe.de',
    'example.com:443',
  ])('treats %p as a public host', (hostname) => {
    expect(isLocalOrIpHost(hostname)).toBe(false);
  });
});

describe('isPushEnabledForHost', () => {
  it('enables push on a public host', () => {
    expect(isPushEnabledForHost('qupm.example.com', false)).toBe(true);
  });

  it.each(['localhost', '192.168.1.20', '[::1]'])('disables push on %p without the override', (hostname) => {
    expect(isPushEnabledForHost(hostname, false)).toBe(false);
  });

  it.each(['localhost', '192.168.1.20', 'qupm.example.com'])(
    'enables push on %p with the override on',
    (hostname) => {
      expect(isPushEnabledForHost(hostname, true)).toBe(true);
    },
  );
});

describe('browserHostname', () => {
  it("returns the page's hostname", () => {
    defineGlobal('location', { value: { hostname: 'qupm.example.com' } });
    expect(browserHostname()).toBe('qupm.example.com');
  });

  it('returns an empty hostname when there is no location', () => {
    expect(browserHostname()).toBe('');
  });

  it('returns an empty hostname when location has no string hostname', () => {
    defineGlobal('location', { value: {} });
    expect(browserHostname()).toBe('');
  });

  it('returns an empty hostname when reading it throws', () => {
    defineGlobal('location', { value: Object.defineProperty({}, 'hostname', throwingGetter()) });
    expect(browserHostname()).toBe('');
  });
});
