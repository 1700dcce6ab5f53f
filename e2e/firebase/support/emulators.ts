// The emulator suite's view of the emulators globalSetup started: their addresses, and the three wire surfaces
// the tests speak — the Auth emulator's REST API (accounts, claims, the out-of-band codes it "mails"), Firebase's
// callable protocol over HTTP, and Firestore's REST API as the Admin SDK would use it (the emulator's `owner`).
import { EMULATORS_VARIABLE, EMULATOR_BUCKET } from '../../../drivers/firebaseEmulators';
import type { EmulatorAddresses } from '../../../drivers/firebaseEmulators';
import { identityToolkit as identityToolkitOf } from '../../../drivers/firebaseAccounts';
import type { EmulatorAccount } from '../../../drivers/firebaseAccounts';
import { eventually } from '../../../__tests__/support/eventually';

export function emulators(): EmulatorAddresses {
  const value = process.env[EMULATORS_VARIABLE];
  if (!value) throw new Error(`${EMULATORS_VARIABLE} is not set: run through e2e/firebase/jest.config.ts`);
  return JSON.parse(value) as EmulatorAddresses;
}

// --- Auth --------------------------------------------------------------------------------------------------

export type Account = EmulatorAccount;

const identityToolkit = <T>(path: string, body: unknown, admin = false): Promise<T> =>
  identityToolkitOf<T>(emulators(), path, body, admin);

let accounts = 0;

/** A fresh address no other test uses. */
export function uniqueEmail(who: string): string {
  accounts += 1;
  return `${who}-${Date.now()}-${accounts}@example.com`;
}

/**
 * A new account, signed up as the web SDK does it. The functions' user-created trigger writes its users/{uid}
 * document a moment later; this waits for it, as everything a person does after signing up needs it.
 */
export async function signUp(who: string, displayName?: string): Promise<Account> {
  const email = uniqueEmail(who);
  const password = 'a-long-password';
  const answer = await identityToolkit<{ localId: string; idToken: string }>('accounts:signUp', {
    email,
    password,
    returnSecureToken: true,
    ...(displayName ? { displayName } : {}),
  });
  await eventually(
    async () => {
      if ((await readDocument(`users/${answer.localId}`)) === null)
        throw new Error(`no users/${answer.localId}`);
    },
    { timeoutMs: 30_000, everyMs: 100 },
  );
  return { uid: answer.localId, email, password, idToken: answer.idToken };
}

/** A new ID token for the account (it carries the custom claims set since). */
export async function signIn(account: Account): Promise<Account> {
  const answer = await identityToolkit<{ idToken: string }>('accounts:signInWithPassword', {
    email: account.email,
    password: account.password,
    returnSecureToken: true,
  });
  return { ...account, idToken: answer.idToken };
}

/** What `npm --prefix functions run set-admin` does: the isAdmin custom claim (spec §6). */
export async function makeAdmin(account: Account): Promise<Account> {
  await identityToolkit(
    'accounts:update',
    { localId: account.uid, customAttributes: JSON.stringify({ isAdmin: true }) },
    true,
  );
  return signIn(account);
}

/** What a person confirming their address does, done by the Auth emulator's admin API (a test's shortcut). */
export async function confirmAddress(account: Account): Promise<Account> {
  await identityToolkit('accounts:update', { localId: account.uid, emailVerified: true }, true);
  return signIn(account);
}

export interface OutOfBandCode {
  email: string;
  requestType: string;
  oobCode: string;
  oobLink: string;
}

/** The emails the Auth emulator would have sent (verification, password reset), oldest first. */
export async function outOfBandCodes(): Promise<OutOfBandCode[]> {
  const { authUrl, projectId } = emulators();
  const answer = await fetch(`${authUrl}/emulator/v1/projects/${projectId}/oobCodes`);
  return ((await answer.json()) as { oobCodes: OutOfBandCode[] }).oobCodes;
}

// --- Callables ---------------------------------------------------------------------------------------------

export interface CallableAnswer {
  status: number;
  body: { result?: unknown; error?: { status: string; message: string; details?: unknown } };
}

/** A callable over HTTP, as the web SDK sends it: POST {"data": …} with the ID token as a bearer token. */
export async function call(
  name: string,
  data: unknown,
  idToken?: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<CallableAnswer> {
  const { functionsUrl, projectId } = emulators();
  const answer = await fetch(`${functionsUrl}/${projectId}/us-central1/${name}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(idToken ? { Authorization: `Bearer ${idToken}` } : {}),
      ...init.headers,
    },
    body: init.body ?? JSON.stringify({ data }),
  });
  const text = await answer.text();
  let body: CallableAnswer['body'];
  try {
    body = JSON.parse(text) as CallableAnswer['body'];
  } catch {
    throw new Error(
      `${name} answered ${answer.status} with something that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  return { status: answer.status, body };
}

/** A callable that must succeed: its result. */
export async function result<T>(name: string, data: unknown, idToken: string): Promise<T> {
  const answer = await call(name, data, idToken);
  if (answer.status !== 200 || answer.body.error) {
    throw new Error(`${name} failed: ${answer.status} ${JSON.stringify(answer.body.error)}`);
  }
  return answer.body.result as T;
}

// --- Firestore (the emulator's owner, as the Admin SDK) ----------------------------------------------------

type Value =
  | { nullValue: null }
  | { booleanValue: boolean }
  | { integerValue: string }
  | { doubleValue: number }
  | { stringValue: string }
  | { timestampValue: string }
  | { arrayValue: { values?: Value[] } }
  | { mapValue: { fields?: Record<string, Value> } };

function toValue(value: unknown): Value {
  if (value === null || value === undefined) return { nullValue: null };
  if (typeof value === 'boolean') return { booleanValue: value };
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { integerValue: String(value) } : { doubleValue: value };
  }
  if (typeof value === 'string') return { stringValue: value };
  if (value instanceof Date) return { timestampValue: value.toISOString() };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(toValue) } };
  return {
    mapValue: {
      fields: Object.fromEntries(Object.entries(value as object).map(([key, v]) => [key, toValue(v)])),
    },
  };
}

function fromValue(value: Value): unknown {
  if ('nullValue' in value) return null;
  if ('booleanValue' in value) return value.booleanValue;
  if ('integerValue' in value) return Number(value.integerValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('stringValue' in value) return value.stringValue;
  if ('timestampValue' in value) return new Date(value.timestampValue);
  if ('arrayValue' in value) return (value.arrayValue.values ?? []).map(fromValue);
  return fromFields(value.mapValue.fields ?? {});
}

function fromFields(fields: Record<string, Value>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, v]) => [key, fromValue(v)]));
}

function documentUrl(path: string): string {
  const { firestoreUrl, projectId } = emulators();
  return `${firestoreUrl}/v1/projects/${projectId}/databases/(default)/documents/${path}`;
}

const OWNER = { Authorization: 'Bearer owner', 'Content-Type': 'application/json' };

/** A document as the backend reads it (rules do not apply to the owner), or null. */
export async function readDocument(path: string): Promise<Record<string, unknown> | null> {
  const answer = await fetch(documentUrl(path), { headers: OWNER });
  if (answer.status === 404) return null;
  if (!answer.ok) throw new Error(`read ${path}: ${answer.status} ${await answer.text()}`);
  return fromFields(((await answer.json()) as { fields?: Record<string, Value> }).fields ?? {});
}

/** Every document of a collection (its id and fields), as the backend lists them. */
export async function listDocuments(
  collectionPath: string,
): Promise<{ id: string; data: Record<string, unknown> }[]> {
  const documents: { id: string; data: Record<string, unknown> }[] = [];
  let pageToken = '';
  do {
    const answer = await fetch(
      `${documentUrl(collectionPath)}?pageSize=300${pageToken ? `&pageToken=${pageToken}` : ''}`,
      { headers: OWNER },
    );
    if (!answer.ok) throw new Error(`list ${collectionPath}: ${answer.status} ${await answer.text()}`);
    const page = (await answer.json()) as {
      documents?: { name: string; fields?: Record<string, Value> }[];
      nextPageToken?: string;
    };
    for (const document of page.documents ?? []) {
      documents.push({ id: document.name.split('/').pop() ?? '', data: fromFields(document.fields ?? {}) });
    }
    pageToken = page.nextPageToken ?? '';
  } while (pageToken);
  return documents;
}

/** Writes (creates or replaces) a document as the backend would. */
export async function writeDocument(path: string, data: Record<string, unknown>): Promise<void> {
  const fields = (toValue(data) as { mapValue: { fields: Record<string, Value> } }).mapValue.fields;
  const answer = await fetch(documentUrl(path), {
    method: 'PATCH',
    headers: OWNER,
    body: JSON.stringify({ fields }),
  });
  if (!answer.ok) throw new Error(`write ${path}: ${answer.status} ${await answer.text()}`);
}

// --- Cloud Storage (the stand-in the functions' Admin SDK reaches, drivers/cloudStorageStandIn.ts) -----------

/** Puts an object into the default bucket, as an upload would (Cloud Storage's simple media upload). */
export async function putObject(name: string, data: string, contentType = 'text/plain'): Promise<void> {
  const { storageUrl } = emulators();
  const answer = await fetch(
    `${storageUrl}/upload/storage/v1/b/${EMULATOR_BUCKET}/o?uploadType=media&name=${encodeURIComponent(name)}`,
    { method: 'POST', headers: { 'Content-Type': contentType }, body: data },
  );
  if (!answer.ok) throw new Error(`put ${name}: ${answer.status} ${await answer.text()}`);
}

/** The names of the default bucket's objects under a prefix (one page: a test puts a handful). */
export async function objectNames(prefix: string): Promise<string[]> {
  const { storageUrl } = emulators();
  const answer = await fetch(
    `${storageUrl}/storage/v1/b/${EMULATOR_BUCKET}/o?prefix=${encodeURIComponent(prefix)}`,
  );
  if (!answer.ok) throw new Error(`list ${prefix}: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { items?: { name: string }[] }).items?.map((item) => item.name) ?? [];
}
