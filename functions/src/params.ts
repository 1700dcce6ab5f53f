// Deploy-time settings (README "Deploying to Firebase"). Each is a parameter of firebase-functions: set it in
// functions/.env (or .env.<projectId>); `firebase deploy` asks for any that has no value and no default.
import { defineBoolean, defineString } from 'firebase-functions/params';

/**
 * The App Check switch: true makes every callable refuse requests without a valid App Check token (401). Off by
 * default, because the web client does not yet attest itself with App Check (docs/DECISIONS.md "Firebase").
 */
export const ENFORCE_APP_CHECK = defineBoolean('QUPM_ENFORCE_APP_CHECK', {
  default: false,
  description: 'Refuse callable requests without a valid App Check token',
});

/** Where every function runs; the web build's QUPM_FIREBASE_FUNCTIONS_REGION must name the same region. */
export const FUNCTIONS_REGION = defineString('QUPM_FUNCTIONS_REGION', {
  default: 'us-central1',
  description: 'Region of the Cloud Functions (the same as the web build QUPM_FIREBASE_FUNCTIONS_REGION)',
});

/** The app's origin for links in notifications; empty means the project's default Hosting site. */
export const APP_ORIGIN = defineString('QUPM_APP_ORIGIN', {
  default: '',
  description: 'Origin of the web app, e.g. https://qupm.example.com (empty: https://<project>.web.app)',
});

/** The origin a notification's link points to. */
export function resolveAppOrigin(configured: string, projectId: string | undefined): string {
  const origin = configured.trim();
  if (origin) return new URL(origin).origin;
  if (!projectId) throw new Error('QUPM_APP_ORIGIN is not set and the project id is unknown');
  return `https://${projectId}.web.app`;
}
