// Which browsers revoke a push subscription whose pushes show nothing. WebKit does, on iOS and on macOS alike
// ("Safari doesn't support invisible push notifications"), so there the worker shows every push itself, even one
// an open page already showed in-app. Chromium and Firefox let a focused page handle a push silently.

const IOS_DEVICE = /iPhone|iPad|iPod/i;
const SAFARI = /Version\/[\d.]+.*Safari\//;
const OTHER_ENGINES = /Chrome|Chromium|CriOS|Android|Edg|OPR|Firefox|FxiOS/;

/** True on iOS (every browser there is WebKit) and in Safari on macOS (iPadOS reports itself as macOS Safari). */
export function mustShowEveryPush(userAgent: string): boolean {
  if (IOS_DEVICE.test(userAgent)) return true;
  return SAFARI.test(userAgent) && !OTHER_ENGINES.test(userAgent);
}
