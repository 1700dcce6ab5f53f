// Whether the app runs as an installed app rather than in a browser tab (spec §1).
import type { Platform } from './platform';
import { browserPlatform } from './platform';

export type MatchMedia = (query: string) => { matches: boolean };

export interface InstallEnv {
  platform: Platform;
  matchMedia: MatchMedia | null;
  navigatorStandalone: unknown;
}

// spec §1: on Android and desktop, installed means display mode standalone or minimal-ui.
export const INSTALLED_DISPLAY_MODE_QUERIES = [
  '(display-mode: standalone)',
  '(display-mode: minimal-ui)',
] as const;

function matches(matchMedia: MatchMedia, query: string): boolean {
  try {
    return matchMedia(query).matches === true;
  } catch {
    // An invalid query, a missing result or a stubbed matchMedia throws; that is "not this display mode".
    return false;
  }
}

/** Whether the app runs installed: spec §1 standalone flag on iOS, standalone/minimal-ui display mode elsewhere. */
export function isInstalledApp({ platform, matchMedia, navigatorStandalone }: InstallEnv): boolean {
  // spec §1: on iOS when the standalone flag is set. Only a real true counts, not a truthy value.
  if (platform === 'ios') return navigatorStandalone === true;
  if (!matchMedia) return false;
  return INSTALLED_DISPLAY_MODE_QUERIES.some((query) => matches(matchMedia, query));
}

/** The install environment of the running browser; never throws. */
export function browserInstallEnv(): InstallEnv {
  let matchMedia: MatchMedia | null = null;
  try {
    if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
      // Called unbound, window.matchMedia throws "Illegal invocation"; keep window as its receiver.
      matchMedia = (query) => window.matchMedia(query);
    }
  } catch {
    matchMedia = null;
  }
  let navigatorStandalone: unknown = undefined;
  try {
    // navigator.standalone is Apple's non-standard flag, so it is not in the DOM typings.
    if (typeof navigator !== 'undefined')
      navigatorStandalone = (navigator as { standalone?: unknown }).standalone;
  } catch {
    navigatorStandalone = undefined;
  }
  return { platform: browserPlatform(), matchMedia, navigatorStandalone };
}
