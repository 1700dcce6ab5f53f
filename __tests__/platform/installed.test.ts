import { browserInstallEnv, isInstalledApp } from '@/platform';
import type { MatchMedia, Platform } from '@/platform';
import { defineGlobal, restoreGlobals, throwingGetter } from './fakes';

afterEach(restoreGlobals);

/** A matchMedia that matches exactly the given queries and records what it was asked. */
function matchMediaFor(...matching: string[]): MatchMedia & { asked: string[] } {
  const asked: string[] = [];
  const matchMedia = (query: string) => {
    asked.push(query);
    return { matches: matching.includes(query) };
  };
  return Object.assign(matchMedia, { asked });
}

const STANDALONE = '(display-mode: standalone)';
const MINIMAL_UI = '(display-mode: minimal-ui)';

describe('isInstalledApp', () => {
  describe('on iOS', () => {
    it('is installed when navigator.standalone is true', () => {
      expect(isInstalledApp({ platform: 'ios', matchMedia: null, navigatorStandalone: true })).toBe(true);
    });

    it.each([
      ['false', false],
      ['missing', undefined],
      ['the string true', 'true'],
      ['1', 1],
    ])('is not installed when navigator.standalone is %s', (_label, navigatorStandalone) => {
      expect(isInstalledApp({ platform: 'ios', matchMedia: null, navigatorStandalone })).toBe(false);
    });

    it('ignores the display mode', () => {
      const matchMedia = matchMediaFor(STANDALONE, MINIMAL_UI);
      expect(isInstalledApp({ platform: 'ios', matchMedia, navigatorStandalone: undefined })).toBe(false);
    });
  });

  describe.each<Platform>(['android', 'web'])('on %s', (platform) => {
    it('is installed in standalone display mode', () => {
      const matchMedia = matchMediaFor(STANDALONE);
      expect(isInstalledApp({ platform, matchMedia, navigatorStandalone: undefined })).toBe(true);
    });

    it('is installed in minimal-ui display mode', () => {
      const matchMedia = matchMediaFor(MINIMAL_UI);
      expect(isInstalledApp({ platform, matchMedia, navigatorStandalone: undefined })).toBe(true);
    });

    it('is not installed in a browser tab or in fullscreen', () => {
      const matchMedia = matchMediaFor('(display-mode: browser)', '(display-mode: fullscreen)');
      expect(isInstalledApp({ platform, matchMedia, navigatorStandalone: undefined })).toBe(false);
      expect(matchMedia.asked).toEqual([STANDALONE, MINIMAL_UI]);
    });

    it('ignores the iOS standalone flag', () => {
      const matchMedia = matchMediaFor();
      expect(isInstalledApp({ platform, matchMedia, navigatorStandalone: true })).toBe(false);
    });

    it('is not installed when there is no matchMedia', () => {
      expect(isInstalledApp({ platform, matchMedia: null, navigatorStandalone: undefined })).toBe(false);
    });

    it('is not installed when matchMedia throws', () => {
      const matchMedia = () => {
        throw new TypeError('Illegal invocation');
      };
      expect(isInstalledApp({ platform, matchMedia, navigatorStandalone: undefined })).toBe(false);
    });

    it('is not installed when matchMedia returns nothing', () => {
      const matchMedia = (() => undefined) as unknown as MatchMedia;
      expect(isInstalledApp({ platform, matchMedia, navigatorStandalone: undefined })).toBe(false);
    });

    it('still sees minimal-ui when the standalone query throws', () => {
      const matchMedia = (query: string) => {
        if (query === STANDALONE) throw new SyntaxError('unsupported media query');
        return { matches: query === MINIMAL_UI };
      };
      expect(isInstalledApp({ platform, matchMedia, navigatorStandalone: undefined })).toBe(true);
    });
  });
});

describe('browserInstallEnv', () => {
  it('has no matchMedia and no standalone flag when there is no window or navigator', () => {
    defineGlobal('navigator', { value: undefined });
    expect(browserInstallEnv()).toEqual({
      platform: 'web',
      matchMedia: null,
      navigatorStandalone: undefined,
    });
  });

  it("calls the window's matchMedia with the window as receiver", () => {
    const win: { matchMedia?: (this: unknown, query: string) => { matches: boolean } } = {};
    win.matchMedia = function (this: unknown, query: string) {
      if (this !== win) throw new TypeError('Illegal invocation');
      return { matches: query === STANDALONE };
    };
    defineGlobal('window', { value: win });
    defineGlobal('navigator', { value: { userAgent: 'Mozilla/5.0 (Linux; Android 14)', maxTouchPoints: 5 } });
    const env = browserInstallEnv();
    expect(env.platform).toBe('android');
    expect(isInstalledApp(env)).toBe(true);
  });

  it("reads iOS's navigator.standalone flag", () => {
    defineGlobal('navigator', {
      value: {
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)',
        maxTouchPoints: 5,
        standalone: true,
      },
    });
    const env = browserInstallEnv();
    expect(env).toMatchObject({ platform: 'ios', navigatorStandalone: true });
    expect(isInstalledApp(env)).toBe(true);
  });

  it('has no matchMedia when reading window.matchMedia throws', () => {
    defineGlobal('window', { value: Object.defineProperty({}, 'matchMedia', throwingGetter()) });
    expect(browserInstallEnv().matchMedia).toBeNull();
  });

  it('has no standalone flag when reading navigator.standalone throws', () => {
    defineGlobal('navigator', {
      value: Object.defineProperty({ userAgent: '' }, 'standalone', throwingGetter()),
    });
    expect(browserInstallEnv().navigatorStandalone).toBeUndefined();
  });
});
