// Grants or removes the isAdmin custom claim (spec §6: admin from an isAdmin claim on the identity token):
//   npm --prefix functions run set-admin -- <email> [--remove]
// Runs with Application Default Credentials (`gcloud auth application-default login`, or
// GOOGLE_APPLICATION_CREDENTIALS) and the project in GCLOUD_PROJECT. Other claims the account has are kept.
// The person sees the change at their next sign-in or within the hour, when Firebase refreshes the ID token.
import { initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import type { Auth } from 'firebase-admin/auth';

export interface AdminClaimResult {
  uid: string;
  email: string;
  isAdmin: boolean;
}

export function parseArgs(argv: readonly string[]): { email: string; isAdmin: boolean } {
  const flags = argv.filter((arg) => arg.startsWith('--'));
  const rest = argv.filter((arg) => !arg.startsWith('--'));
  const unknown = flags.filter((flag) => flag !== '--remove');
  const email = rest[0]?.trim() ?? '';
  if (unknown.length > 0 || rest.length !== 1 || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    throw new Error('Usage: npm --prefix functions run set-admin -- <email> [--remove]');
  }
  return { email, isAdmin: !flags.includes('--remove') };
}

export async function setAdminClaim(
  auth: Pick<Auth, 'getUserByEmail' | 'setCustomUserClaims'>,
  email: string,
  isAdmin: boolean,
): Promise<AdminClaimResult> {
  const user = await auth.getUserByEmail(email);
  const claims: Record<string, unknown> = { ...(user.customClaims ?? {}) };
  if (isAdmin) claims.isAdmin = true;
  else delete claims.isAdmin;
  await auth.setCustomUserClaims(user.uid, claims);
  return { uid: user.uid, email, isAdmin };
}

async function main(): Promise<void> {
  const { email, isAdmin } = parseArgs(process.argv.slice(2));
  const result = await setAdminClaim(getAuth(initializeApp()), email, isAdmin);
  console.log(
    `${result.email} (${result.uid}) is ${result.isAdmin ? 'now an admin' : 'no longer an admin'}.`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    console.error(
      code === 'auth/user-not-found'
        ? 'There is no account with that email.'
        : error instanceof Error
          ? error.message
          : String(error),
    );
    process.exitCode = 1;
  });
}
