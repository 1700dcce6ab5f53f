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
import { createPushProvider } from './messaging';
import { createAdminPort } from './admin';
import { createOffersPort } from './offers';
import { createPushTokensPort } from './pushTokens';
import { createFirebaseSdk } from './sdk';
import type { FirebaseInstance } from './sdk';
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

export function createFirebaseBackend(
  config: FirebaseConfig,
  host: AdapterHost = NO_HOST,
  instance: FirebaseInstance = {},
): Backend {
  const sdk = createFirebaseSdk(config, instance);
  const senderNames = createSenderNames();
  const { callables, invitations } = createCallables(sdk);
  const live = createLiveStatus(sdk);
  return {
    kind: 'firebase',
    auth: createAuthPort(sdk),
    users: { ...createUsersPort(sdk, senderNames.remember), ...createLeaving(sdk) },
    channels: createChannelsPort(sdk),
    mutes: createMutesPort(sdk),
    messages: createMessagesPort(sdk, senderNames, live),
    live: live.port,
    invitations,
    offers: createOffersPort(sdk),
    admin: createAdminPort(sdk),
    pushTokens: createPushTokensPort(sdk),
    callables,
    pushProvider: createPushProvider(sdk, host),
    sessions: createSessionsPort(sdk),
  };
}
