// People on the emulators, made as the app makes them, for the bench: accounts signed up through the Auth
// emulator's REST API, an admin's claim set through its admin API, and callables over HTTP. The emulator suite's
// fuller helpers (e2e/firebase/support/emulators.ts, which the bench may not import) call the Auth emulator here.
import type { EmulatorAddresses } from './firebaseEmulators';

export interface EmulatorAccount {
  uid: string;
  email: string;
  password: string;
  idToken: string;
}

const USER_DOCUMENT_WAIT_MS = 30_000;

/** A call of the Auth emulator's REST API (`admin`: its admin API, as the project's owner). */
export async function identityToolkit<T>(
  at: EmulatorAddresses,
  path: string,
  body: unknown,
  admin = false,
): Promise<T> {
  const url = admin
    ? `${at.authUrl}/identitytoolkit.googleapis.com/v1/projects/${at.projectId}/${path}`
    : `${at.authUrl}/identitytoolkit.googleapis.com/v1/${path}?key=demo-api-key`;
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(admin ? { Authorization: 'Bearer owner' } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await answer.json()) as T & { error?: { message: string } };
  if (!answer.ok) throw new Error(`Auth emulator ${path}: ${json.error?.message ?? answer.status}`);
  return json;
}

let accounts = 0;

/** A new account; resolves once the functions' user-created trigger has written its users/{uid} document. */
export async function signUpOnEmulators(
  at: EmulatorAddresses,
  who: string,
  displayName?: string,
): Promise<EmulatorAccount> {
  accounts += 1;
  const email = `${who}-${Date.now()}-${accounts}@example.com`;
  const password = 'a-long-password';
  const answer = await identityToolkit<{ localId: string; idToken: string }>(at, 'accounts:signUp', {
    email,
    password,
    returnSecureToken: true,
    ...(displayName ? { displayName } : {}),
  });
  const document = `${at.firestoreUrl}/v1/projects/${at.projectId}/databases/(default)/documents/users/${answer.localId}`;
  const deadline = Date.now() + USER_DOCUMENT_WAIT_MS;
  while ((await fetch(document, { headers: { Authorization: 'Bearer owner' } })).status !== 200) {
    if (Date.now() > deadline)
      throw new Error(`No users/${answer.localId} after ${USER_DOCUMENT_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { uid: answer.localId, email, password, idToken: answer.idToken };
}

/** The isAdmin claim (spec §6), and an ID token that carries it. */
export async function makeAdminOnEmulators(
  at: EmulatorAddresses,
  account: EmulatorAccount,
): Promise<EmulatorAccount> {
  await identityToolkit(
    at,
    'accounts:update',
    { localId: account.uid, customAttributes: JSON.stringify({ isAdmin: true }) },
    true,
  );
  const answer = await identityToolkit<{ idToken: string }>(at, 'accounts:signInWithPassword', {
    email: account.email,
    password: account.password,
    returnSecureToken: true,
  });
  return { ...account, idToken: answer.idToken };
}

/** A callable that must succeed, as the web SDK sends it: its result. */
export async function callOnEmulators<T>(
  at: EmulatorAddresses,
  name: string,
  data: unknown,
  idToken: string,
): Promise<T> {
  const answer = await fetch(`${at.functionsUrl}/${at.projectId}/us-central1/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ data }),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${name} failed: ${answer.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { result: T }).result;
}
