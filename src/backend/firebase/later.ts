// Ports whose code loads the first time one of them is called (laterPorts.ts, a chunk of its own): each stands
// in at once with every member of its interface, named below. A call waits for the chunk and is then the port's
// own (a chunk that fails to load answers as the SDK's chunks do: sdk.ts once); a subscription hands its
// unsubscribe back at once and starts once the chunk is there, as Firestore's listeners do (live.ts
// listenLazily), so unsubscribing before that means it never starts.
import type { Unsubscribe } from '../ports';
import type { LaterPorts } from './laterPorts';
import { reportListenerError } from './live';

/** A member that answers a promise ('call'), or a subscription that answers its unsubscribe ('subscribe'). */
export type MemberKind = 'call' | 'subscribe';
export type PortShape<T> = { [K in keyof T]-?: MemberKind };

/** The port `load` answers, standing in until it has: every member of `shape`, and nothing else. */
export function lazyPort<T extends object>(load: () => Promise<T>, shape: PortShape<T>, what: string): T {
  const port: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(shape) as Array<[string, MemberKind]>) {
    // The types name every member of T in `shape`: each is the port's own function.
    type Member = (...args: unknown[]) => unknown;
    const member = (loaded: T): Member => (loaded as Record<string, unknown>)[name] as Member;
    port[name] =
      kind === 'call'
        ? (...args: unknown[]) => load().then((loaded) => member(loaded).apply(loaded, args))
        : (...args: unknown[]): Unsubscribe => {
            let stopped = false;
            let stop: Unsubscribe | null = null;
            load().then(
              (loaded) => {
                if (!stopped) stop = member(loaded).apply(loaded, args) as Unsubscribe;
              },
              reportListenerError(`${what} (${name})`),
            );
            return () => {
              stopped = true;
              stop?.();
              stop = null;
            };
          };
  }
  return port as T;
}

/** Every member of each later port; the types keep the lists whole (a member added to a port must be named). */
export const LATER_PORT_SHAPES: { [P in keyof LaterPorts]: PortShape<LaterPorts[P]> } = {
  messages: {
    listMessages: 'call',
    sendMessage: 'call',
    editMessage: 'call',
    deleteMessage: 'call',
    reactToMessage: 'call',
    uploadAttachment: 'call',
    readAttachment: 'call',
    subscribeMessages: 'subscribe',
  },
  receipts: {
    listReceipts: 'call',
    subscribeReceipts: 'subscribe',
    markDelivered: 'call',
    getSettings: 'call',
    setSettings: 'call',
  },
  typing: { sendTyping: 'call', subscribeTyping: 'subscribe' },
  mutes: { listMutes: 'call', muteChannel: 'call', unmuteChannel: 'call', subscribeMutes: 'subscribe' },
  pushTokens: {
    findActiveToken: 'call',
    addToken: 'call',
    touchToken: 'call',
    deleteToken: 'call',
    listMyTokens: 'call',
  },
  offers: {
    issueOffer: 'call',
    listIssuedOffers: 'call',
    listMyOffers: 'call',
    withdrawOffer: 'call',
    subscribeOffers: 'subscribe',
  },
  admin: { listUsers: 'call', setConsultant: 'call', listChannels: 'call' },
  services: {
    listServices: 'call',
    createService: 'call',
    updateService: 'call',
    getHours: 'call',
    setHours: 'call',
    listFreeSlots: 'call',
    subscribeServices: 'subscribe',
  },
  bookings: {
    requestBooking: 'call',
    getBooking: 'call',
    listMyBookings: 'call',
    confirmBooking: 'call',
    declineBooking: 'call',
    proposeTime: 'call',
    acceptProposal: 'call',
    declineProposal: 'call',
    cancelBooking: 'call',
    completeBooking: 'call',
    refundBooking: 'call',
    subscribeBookings: 'subscribe',
  },
  ledger: { grant: 'call', listMyLedger: 'call', getEarnings: 'call' },
  housekeeping: {
    describeChannelRemoval: 'call',
    archiveChannel: 'call',
    unarchiveChannel: 'call',
    deleteChannel: 'call',
    removeMember: 'call',
    revokeInvitation: 'call',
    handOverChannel: 'call',
    subscribeChannelRemoved: 'subscribe',
  },
  search: { searchMessages: 'call' },
};

/** Each later port, standing in for the one `load` makes. */
export function laterPorts(load: () => Promise<LaterPorts>): LaterPorts {
  const ports: Record<string, unknown> = {};
  for (const [name, shape] of Object.entries(LATER_PORT_SHAPES)) {
    const key = name as keyof LaterPorts;
    ports[name] = lazyPort(() => load().then((loaded) => loaded[key] as object), shape, name);
  }
  return ports as unknown as LaterPorts;
}
