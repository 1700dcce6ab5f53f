import { browserPlatform, detectBrowserFamily, detectPlatform } from '@/platform';
import { defineGlobal, restoreGlobals, throwingGetter } from './fakes';

afterEach(restoreGlobals);

const UA = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iPadLegacy:
    'Mozilla/5.0 (iPad; CPU OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
  iPod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  androidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
};

describe('detectPlatform', () => {
  it.each([
    ['an iPhone', UA.iPhone, 5],
    ['an iPad before iPadOS 13', UA.iPadLegacy, 5],
    ['an iPod touch', UA.iPod, 5],
    ['an iPad on iPadOS 13+ that reports a Mac user agent but has a touch screen', UA.macSafari, 5],
  ])('recognises %s as ios', (_label, userAgent, maxTouchPoints) => {
    expect(detectPlatform({ userAgent, maxTouchPoints })).toBe('ios');
  });

  it.each([
    ['an Android phone', UA.androidPhone],
    ['an Android tablet', UA.androidTablet],
  ])('recognises %s as android', (_label, userAgent) => {
    expect(detectPlatform({ userAgent, maxTouchPoints: 5 })).toBe('android');
  });

  it.each([
    ['a Mac without a touch screen', UA.macSafari, 0],
    ['a Mac reporting a single touch point', UA.macSafari, 1],
    ['Windows with a touch screen', UA.windowsChrome, 10],
    ['Linux', UA.linuxFirefox, 0],
    ['an empty user agent', '', 0],
  ])('treats %s as web', (_label, userAgent, maxTouchPoints) => {
    expect(detectPlatform({ userAgent, maxTouchPoints })).toBe('web');
  });
});

describe('browserPlatform', () => {
  it("reads the platform from the browser's navigator", () => {
    defineGlobal('navigator', { value: { userAgent: UA.macSafari, maxTouchPoints: 5 } });
    expect(browserPlatform()).toBe('ios');
  });

  it('answers web when there is no navigator', () => {
    defineGlobal('navigator', { value: undefined });
    expect(browserPlatform()).toBe('web');
  });

  it('answers web when the navigator lacks the properties', () => {
    defineGlobal('navigator', { value: {} });
    expect(browserPlatform()).toBe('web');
  });

  it('answers web instead of throwing when reading the user agent throws', () => {
    defineGlobal('navigator', { value: Object.defineProperty({}, 'userAgent', throwingGetter()) });
    expect(browserPlatform()).toBe('web');
  });
});

describe('detectBrowserFamily', () => {
  const BROWSERS = {
    chromeWindows:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    edgeMac:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    androidChrome:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    iphone:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    safariMac:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  };

  it.each([
    [BROWSERS.chromeWindows, 0, 'chromium-desktop'],
    [BROWSERS.edgeMac, 0, 'chromium-desktop'],
    [BROWSERS.androidChrome, 5, 'android'],
    [BROWSERS.iphone, 5, 'ios'],
    [BROWSERS.safariMac, 5, 'ios'],
    [BROWSERS.firefoxLinux, 0, 'firefox'],
    [BROWSERS.safariMac, 0, 'safari-mac'],
    ['', 0, 'other'],
  ] as const)('reads %s (%d touch points) as %s', (userAgent, maxTouchPoints, family) => {
    expect(detectBrowserFamily({ userAgent, maxTouchPoints })).toBe(family);
  });
});
