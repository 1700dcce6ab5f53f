// What every host of the QuPM build must send (QUALITY.md "Service worker and app shell" and "Backend"), in one
// place for the embedded server's tests (server/static.test.ts) and Firebase Hosting's (firebase.json): the
// cache policy of server/static.ts, a CSP without inline script, nosniff, frame-ancestors 'none', a
// Referrer-Policy. Firebase is compared with the embedded server's real answers, not with a copy of them.

/** Paths a host is asked for, with what each is: a hashed asset, the worker, the shell, a route of the app. */
export const SAMPLE_PATHS = {
  hashedScript: '/static/js/main.0123abcd.js',
  hashedStyle: '/static/css/main.0123abcd.css',
  worker: '/sw.js',
  shell: '/index.html',
  manifest: '/manifest.webmanifest',
  icon: '/icons/icon-192.png',
  robots: '/robots.txt',
} as const;

/** Routes of the app (spec §2), and one that is not, all answered with the shell. */
export const APP_ROUTES = [
  '/',
  '/services',
  '/invite/AbCdEfGhIj0123456789',
  '/activate/AbCdEfGhIj0123456789',
  '/settings/about',
  '/no/such/page',
] as const;

/** Firebase's endpoints the client calls (src/backend/firebase), and only those. */
export const FIREBASE_CONNECT_SOURCES = [
  // Firebase Auth, email and password: sign-up, sign-in, and the ID token's refresh.
  'https://identitytoolkit.googleapis.com',
  'https://securetoken.googleapis.com',
  // Cloud Firestore (WebChannel over HTTPS).
  'https://firestore.googleapis.com',
  // Cloud Storage: attachments, uploaded and read through storage.rules.
  'https://firebasestorage.googleapis.com',
  // Callable functions at https://<region>-<project>.cloudfunctions.net; the project is known only at build.
  'https://*.cloudfunctions.net',
  // FCM: the installation and the token registration behind getToken/deleteToken.
  'https://fcmregistrations.googleapis.com',
  'https://firebaseinstallations.googleapis.com',
] as const;

export type Csp = Record<string, string[]>;

export function parseCsp(header: string): Csp {
  const csp: Csp = {};
  for (const directive of header.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) csp[name.toLowerCase()] = sources;
  }
  return csp;
}

/** The CSP rules of QUALITY.md that hold on every host. */
export function expectSafeCsp(csp: Csp): void {
  // Inline scripts only by their hashes (the local shell's one that shows the pre-rendered welcome).
  expect(csp['script-src']?.[0]).toBe("'self'");
  for (const source of csp['script-src']?.slice(1) ?? [])
    expect(source).toMatch(/^'sha256-[A-Za-z0-9+/=]+'$/);
  expect(Object.values(csp).flat()).not.toContain("'unsafe-inline'");
  expect(Object.values(csp).flat()).not.toContain("'unsafe-eval'");
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  expect(csp['object-src']).toEqual(["'none'"]);
  // The shell's one inline <style> is allowed by its hash, and nothing else inline.
  expect(csp['style-src']?.[0]).toBe("'self'");
  expect(csp['style-src']?.slice(1)).toEqual([expect.stringMatching(/^'sha256-[A-Za-z0-9+/=]+'$/)]);
}

/** Headers besides the CSP whose value QUALITY.md fixes. */
export const REQUIRED_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;
