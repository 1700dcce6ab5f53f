// Which platform the app runs on, as stored with each push token (spec §3: platform 'ios', 'android' or 'web')
// and as used to decide how installation is detected (spec §1).

export type Platform = 'ios' | 'android' | 'web';

export interface PlatformEnv {
  userAgent: string;
  maxTouchPoints: number;
}

const IOS_DEVICE_PATTERN = /iPhone|iPad|iPod/i;
const MAC_PATTERN = /Macintosh/i;
const ANDROID_PATTERN = /Android/i;

/** The platform a user agent belongs to. */
export function detectPlatform({ userAgent, maxTouchPoints }: PlatformEnv): Platform {
  if (IOS_DEVICE_PATTERN.test(userAgent)) return 'ios';
  // iPadOS 13+ Safari asks for desktop sites and reports a Mac user agent; only the touch screen tells the
  // two apart (a Mac reports 0 touch points, an iPad 5).
  if (MAC_PATTERN.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (ANDROID_PATTERN.test(userAgent)) return 'android';
  return 'web';
}

function browserPlatformEnv(): PlatformEnv {
  try {
    if (typeof navigator === 'undefined') return { userAgent: '', maxTouchPoints: 0 };
    const { userAgent, maxTouchPoints } = navigator;
    return {
      userAgent: typeof userAgent === 'string' ? userAgent : '',
      maxTouchPoints: typeof maxTouchPoints === 'number' ? maxTouchPoints : 0,
    };
  } catch {
    return { userAgent: '', maxTouchPoints: 0 };
  }
}

/** The platform of the running browser; 'web' when there is no navigator to ask. */
export function browserPlatform(): Platform {
  return detectPlatform(browserPlatformEnv());
}

/**
 * The browser family whose settings a person opens to allow notifications again (src/ui/pushWords.ts): the
 * steps differ between a Chromium browser on a computer, Chrome on Android, an app added to an iPhone's Home
 * Screen, Firefox and Safari on a Mac.
 */
export type BrowserFamily = 'chromium-desktop' | 'android' | 'ios' | 'firefox' | 'safari-mac' | 'other';

export function detectBrowserFamily(env: PlatformEnv): BrowserFamily {
  const platform = detectPlatform(env);
  if (platform === 'ios') return 'ios';
  const { userAgent } = env;
  if (platform === 'android') return 'android';
  if (/Firefox\//.test(userAgent)) return 'firefox';
  if (/Chrome\/|Chromium\/|Edg\//.test(userAgent)) return 'chromium-desktop';
  if (MAC_PATTERN.test(userAgent) && /Safari\//.test(userAgent)) return 'safari-mac';
  return 'other';
}

/** The browser family of the running browser. */
export function browserFamily(): BrowserFamily {
  return detectBrowserFamily(browserPlatformEnv());
}
