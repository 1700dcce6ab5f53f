// Deploy-time settings (README "Deploying to Firebase"). Each is a parameter of firebase-functions: set it in
// functions/.env (or .env.<projectId>); `firebase deploy` asks for any that has no value and no default.
import { defineBoolean, defineString } from 'firebase-functions/params';

/**
 * The App Check switch: true makes every callable refuse requests without a valid App Check token (401). Off by
 * default, because the web client does not yet attest itself with App Check (README "Deploying to Firebase").
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
  // What `firebase deploy` checks when it asks for the value (the build's check covers .env files too).
  input: {
    text: {
      validationRegex: '^(\\s*|https://[^/\\s]+/?\\s*)$',
      validationErrorMessage:
        'QUPM_APP_ORIGIN must be an https:// origin (FCM drops other notification links)',
    },
  },
});

/**
 * What is wrong with a configured QUPM_APP_ORIGIN, or null: it is empty (the default Hosting site) or an https
 * origin. FCM accepts only HTTPS in webpush.fcmOptions.link and drops a notification's link otherwise,
 * so anything else fails the deploy (functions/scripts/verifyBuild.ts) instead of the pushes.
 */
export function appOriginProblem(configured: string): string | null {
  const origin = configured.trim();
  if (origin === '') return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `${APP_ORIGIN.name} is not a URL: ${origin}`;
  }
  if (url.protocol !== 'https:') {
    return `${APP_ORIGIN.name} must be an https:// origin (FCM drops other notification links): ${origin}`;
  }
  return null;
}

/** The origin a notification's link points to: https, or an error naming the parameter. */
export function resolveAppOrigin(configured: string, projectId: string | undefined): string {
  const origin = configured.trim();
  const problem = appOriginProblem(origin);
  if (problem) throw new Error(problem);
  if (origin) return new URL(origin).origin;
  if (!projectId) throw new Error('QUPM_APP_ORIGIN is not set and the project id is unknown');
  return `https://${projectId}.web.app`;
}

/** `KEY=value` lines of a dotenv file (quotes around the value removed; comments and blank lines skipped). */
export function parseDotEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const found = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!found || line.trim().startsWith('#')) continue;
    const raw = found[2] ?? '';
    values[found[1] ?? ''] = /^(['"]).*\1$/.test(raw) ? raw.slice(1, -1) : raw.replace(/\s+#.*$/, '');
  }
  return values;
}

/**
 * The deploy-time configuration check: the values `firebase deploy` gives the functions, from functions/.env
 * and functions/.env.<project> (the later wins, as the CLI loads them) and the environment, checked as the
 * functions will read them. Empty when the configuration is fine.
 */
export function configurationProblems(
  envFiles: readonly string[],
  env: Record<string, string | undefined>,
): string[] {
  const merged: Record<string, string | undefined> = {};
  for (const text of envFiles) Object.assign(merged, parseDotEnv(text));
  const origin = merged[APP_ORIGIN.name] ?? env[APP_ORIGIN.name] ?? '';
  const problem = appOriginProblem(origin);
  return problem ? [problem] : [];
}
