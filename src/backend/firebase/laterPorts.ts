// The ports that no first screen uses (a conversation's messages, receipts and typing, mutes, push tokens, offers,
// the practice, search, admin), made in a chunk of their own that index.ts loads the first time one is called:
// a signed-in start draws its home without them (src/backend/firebase/later.ts).
import type {
  AdminPort,
  BookingsPort,
  HousekeepingPort,
  LedgerPort,
  MessagesPort,
  MutesPort,
  OffersPort,
  PushTokensPort,
  ReceiptsPort,
  SearchPort,
  ServicesPort,
  TypingPort,
} from '../ports';
import { createAdminPort } from './admin';
import type { LiveStatusTracker } from './live';
import { createMessagesPort } from './messages';
import { createMutesPort } from './mutes';
import { createOffersPort } from './offers';
import { createPracticePorts } from './practice';
import { createPushTokensPort } from './pushTokens';
import { createReceiptsPorts } from './receipts';
import type { FirebaseSdk } from './sdk';
import { createSearchPort } from './search';
import type { SenderNames } from './senderNames';

export interface LaterPorts {
  messages: MessagesPort;
  receipts: ReceiptsPort;
  typing: TypingPort;
  mutes: MutesPort;
  pushTokens: PushTokensPort;
  offers: OffersPort;
  admin: AdminPort;
  services: ServicesPort;
  bookings: BookingsPort;
  ledger: LedgerPort;
  housekeeping: HousekeepingPort;
  search: SearchPort;
}

export function createLaterPorts(
  sdk: FirebaseSdk,
  senderNames: SenderNames,
  live: Pick<LiveStatusTracker, 'track'>,
  listMembers: (channelId: string) => Promise<Array<{ uid: string; name: string }>>,
): LaterPorts {
  const practice = createPracticePorts(sdk);
  const receipts = createReceiptsPorts(sdk, listMembers);
  return {
    messages: createMessagesPort(sdk, senderNames, live),
    receipts: receipts.receipts,
    typing: receipts.typing,
    mutes: createMutesPort(sdk),
    pushTokens: createPushTokensPort(sdk),
    offers: { ...createOffersPort(sdk), ...practice.offers },
    admin: createAdminPort(sdk),
    services: practice.services,
    bookings: practice.bookings,
    ledger: practice.ledger,
    housekeeping: practice.housekeeping,
    search: createSearchPort(sdk),
  };
}
