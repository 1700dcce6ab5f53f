// The Firebase adapter (production, ARCHITECTURE.md): every port on the Firebase JS SDK 12, modular API.
// This module is itself loaded with import() (src/backend/index.ts); inside it, only firebase/app and
// firebase/auth are static, and Firestore, Functions and Messaging load the first time a port needs them.
import { NO_HOST } from '../host';
import type { AdapterHost } from '../host';
import type { Backend } from '../ports';
import { createAuthPort } from './auth';
import { createCallables } from './callables';
import { createChannelsPort } from './channels';
import type { FirebaseConfig } from './config';
import { createLeaving } from './leaving';
import { createLiveStatus } from './live';
import { createPushProvider } from './messaging';
import { laterPorts } from './later';
import { createFirebaseSdk, once } from './sdk';
import { createSenderNames } from './senderNames';
import type { FirebaseInstance } from './sdk';
import { createSessionGuard, withSessionGuard } from './sessionGuard';
import { createSessionsPort } from './sessions';
import { whenFirstScreenDrawn } from '@/platform/firstScreen';
import { createUsersPort } from './users';

export type { EmulatorHost, FirebaseConfig, FirebaseEmulators } from './config';
export type { FirebaseInstance } from './sdk';
export {
  DEFAULT_FUNCTIONS_REGION,
  FIREBASE_EMULATOR_ENV_VARIABLES,
  FIREBASE_ENV_VARIABLES,
  readFirebaseConfigFromEnv,
} from './config';
export { INVITATION_CALLABLES, PRODUCT_CALLABLES } from './callables';

export function createFirebaseBackend(
  config: FirebaseConfig,
  host: AdapterHost = NO_HOST,
  instance: FirebaseInstance = {},
): Backend {
  const sdk = createFirebaseSdk(config, instance);
  const senderNames = createSenderNames();
  const { callables, invitations } = createCallables(sdk);
  // A refusal that says this session was ended elsewhere signs this window out (sessionGuard.ts), on every port
  // that talks to the backend for a signed-in person, and so does the revocation itself while live data flows.
  const session = createSessionGuard(sdk);
  const live = createLiveStatus(sdk, undefined, session);
  const guard = <T extends object>(port: T): T => withSessionGuard(port, session);
  const channels = guard(createChannelsPort(sdk, session));
  // The ports no first screen uses load in a chunk of their own the first time one is called; on the page, not
  // before its first screen is drawn (as Firestore's SDK, which most of them wait for anyway).
  const later = laterPorts(
    once(async () => {
      if (instance.firestoreAfterFirstScreen) await whenFirstScreenDrawn();
      const { createLaterPorts } = await import(/* webpackChunkName: "firebase-later" */ './laterPorts');
      return createLaterPorts(sdk, senderNames, live, (id) => channels.listMembers(id));
    }),
  );
  return {
    kind: 'firebase',
    auth: createAuthPort(sdk),
    users: guard({ ...createUsersPort(sdk, senderNames.remember), ...createLeaving(sdk) }),
    channels,
    mutes: guard(later.mutes),
    receipts: guard(later.receipts),
    typing: guard(later.typing),
    messages: guard(later.messages),
    live: live.port,
    invitations: guard(invitations),
    offers: guard(later.offers),
    admin: guard(later.admin),
    pushTokens: guard(later.pushTokens),
    callables: guard(callables),
    pushProvider: createPushProvider(sdk, host),
    sessions: guard(createSessionsPort(sdk)),
    services: guard(later.services),
    bookings: guard(later.bookings),
    ledger: guard(later.ledger),
    housekeeping: guard(later.housekeeping),
    search: guard(later.search),
  };
}
