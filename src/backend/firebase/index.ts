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
import { createMessagesPort, createSenderNames } from './messages';
import { createMutesPort } from './mutes';
import { createReceiptsPorts } from './receipts';
import { createPushProvider } from './messaging';
import { createAdminPort } from './admin';
import { createOffersPort } from './offers';
import { createPracticePorts } from './practice';
import { createPushTokensPort } from './pushTokens';
import { createFirebaseSdk } from './sdk';
import type { FirebaseInstance } from './sdk';
import { createSessionGuard, withSessionGuard } from './sessionGuard';
import { createSessionsPort } from './sessions';
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

import { createSearchPort } from './search';

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
  const practice = createPracticePorts(sdk);
  const channels = guard(createChannelsPort(sdk, session));
  const receipts = createReceiptsPorts(sdk, (id) => channels.listMembers(id));
  return {
    kind: 'firebase',
    auth: createAuthPort(sdk),
    users: guard({ ...createUsersPort(sdk, senderNames.remember), ...createLeaving(sdk) }),
    channels,
    mutes: guard(createMutesPort(sdk)),
    receipts: guard(receipts.receipts),
    typing: guard(receipts.typing),
    messages: guard(createMessagesPort(sdk, senderNames, live)),
    live: live.port,
    invitations: guard(invitations),
    offers: guard({ ...createOffersPort(sdk), ...practice.offers }),
    admin: guard(createAdminPort(sdk)),
    pushTokens: guard(createPushTokensPort(sdk)),
    callables: guard(callables),
    pushProvider: createPushProvider(sdk, host),
    sessions: guard(createSessionsPort(sdk)),
    services: guard(practice.services),
    bookings: guard(practice.bookings),
    ledger: guard(practice.ledger),
    housekeeping: guard(practice.housekeeping),
    search: guard(createSearchPort(sdk)),
  };
}
