// The consulting practice on Firebase: services and hours, bookings, the ledger, a person's offers and the
// consultant's housekeeping, each through its callable (functions/src/handlers/practice.ts, the payloads of
// core/schemas.ts practiceCallablePayloads), decided there by core/ as the embedded server's routes are. Answers
// are read with the embedded server's answer schemas (core/answers.ts): one shape on both backends, and an answer
// of another shape is a clear error, never a cast. Live: bookings and the consultant's own services on Firestore
// (the rules let each person list exactly those), read through the callables when they change.
import type { QuerySnapshot } from 'firebase/firestore';
import { safeParse } from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import { ANSWERS, bookingAnswer } from '@core/answers';
import type { PracticeCallableName } from '@core/schemas';
import { BackendError } from '../ports';
import type {
  BookingsPort,
  HousekeepingPort,
  LedgerPort,
  OffersPort,
  ServicesPort,
  Unsubscribe,
} from '../ports';
import { callFunction } from './callables';
import { UNREADABLE_ANSWER_MESSAGE } from './errors';
import { listenLazily, reportListenerError } from './live';
import type { FirebaseSdk } from './sdk';

function reader<T>(schema: ZodMiniType<T, unknown>): (data: unknown) => T {
  return (data) => {
    const read = safeParse(schema, data);
    if (!read.success) throw new BackendError('INTERNAL', UNREADABLE_ANSWER_MESSAGE);
    return read.data;
  };
}

const readBooking = reader(bookingAnswer);

export function createPracticePorts(sdk: FirebaseSdk): {
  services: ServicesPort;
  bookings: BookingsPort;
  ledger: LedgerPort;
  housekeeping: HousekeepingPort;
  offers: Pick<OffersPort, 'listMyOffers' | 'withdrawOffer'>;
} {
  const call = <T>(name: PracticeCallableName, payload: unknown, read: (data: unknown) => T): Promise<T> =>
    callFunction(sdk, name, payload, read);
  const step =
    (name: PracticeCallableName) => (bookingId: string, body: { operationId: string; startsAt?: number }) =>
      call(name, { bookingId, ...body }, readBooking);

  /** Every snapshot after the first of a listener: its first is what the list read already answered. */
  const afterFirst = <S>(changed: (snapshot: S) => void): ((snapshot: S) => void) => {
    let first = true;
    return (snapshot) => {
      if (first) first = false;
      else changed(snapshot);
    };
  };
  const onChanges = (changed: (snapshot: QuerySnapshot) => void) => () => afterFirst(changed);

  const services: ServicesPort = {
    listServices: (consultantId) =>
      call('list_services', { consultantId }, (data) => reader(ANSWERS.services)(data).services),
    createService: (input) => call('create_service', input, reader(ANSWERS.service)),
    updateService: (serviceId, patch) =>
      call('update_service', { serviceId, patch }, reader(ANSWERS.service)),
    getHours: (consultantId) =>
      call('get_availability', { consultantId }, (data) => reader(ANSWERS.availability)(data).availability),
    setHours: (input) => call('set_availability', input, reader(ANSWERS.hours)),
    listFreeSlots: (query) => call('list_free_slots', query, reader(ANSWERS.freeSlots)),
    subscribeServices(consultantId, listener) {
      if (consultantId !== sdk.requireUid()) return () => undefined;
      return listenLazily(sdk, 'Live services', ({ sdk: fs, db }) => {
        const changed = onChanges(() => listener());
        const stops = [
          fs.onSnapshot(
            fs.query(fs.collection(db, 'services'), fs.where('consultantId', '==', consultantId)),
            changed(),
            reportListenerError('Live services'),
          ),
          fs.onSnapshot(
            fs.doc(db, 'availability', consultantId),
            afterFirst(listener),
            reportListenerError('Live services'),
          ),
        ];
        return () => stops.forEach((stop) => stop());
      });
    },
  };

  const bookings: BookingsPort = {
    requestBooking: (input) => call('request_booking', input, readBooking),
    getBooking: (bookingId) => call('get_booking', { bookingId }, readBooking),
    listMyBookings: () => call('list_my_bookings', null, reader(ANSWERS.bookings)),
    confirmBooking: step('confirm_booking'),
    declineBooking: step('decline_booking'),
    proposeTime: step('propose_booking_time'),
    acceptProposal: step('accept_proposed_time'),
    declineProposal: step('decline_proposed_time'),
    cancelBooking: step('cancel_booking'),
    completeBooking: step('complete_booking'),
    refundBooking: step('refund_booking'),
    subscribeBookings(listener) {
      return listenLazily(sdk, 'Live bookings', ({ sdk: fs, db }) => {
        const uid = sdk.requireUid();
        // A booking's document holds Firestore's own types: it is read again through get_booking, in the one
        // shape both backends answer; one that cannot be read asks for the list again.
        const changed = onChanges((snapshot) => {
          for (const change of snapshot.docChanges()) {
            if (change.type === 'removed') continue;
            bookings.getBooking(change.doc.id).then(listener, () => listener(null));
          }
        });
        const stops: Unsubscribe[] = ['clientId', 'consultantId'].map((field) =>
          fs.onSnapshot(
            fs.query(fs.collection(db, 'bookings'), fs.where(field, '==', uid)),
            changed(),
            reportListenerError('Live bookings'),
          ),
        );
        return () => stops.forEach((stop) => stop());
      });
    },
  };

  const ledger: LedgerPort = {
    grant: (input) => call('grant_balance', input, reader(ANSWERS.ledgerEntry)),
    listMyLedger: () => call('list_my_ledger', null, reader(ANSWERS.ledger)),
    getEarnings: () => call('get_earnings', null, reader(ANSWERS.earnings)),
  };

  const housekeeping: HousekeepingPort = {
    describeChannelRemoval: (channelId) =>
      call('describe_channel_removal', { channelId }, reader(ANSWERS.channelRemoval)),
    archiveChannel: (channelId) => call('archive_channel', { channelId }, reader(ANSWERS.channel)),
    unarchiveChannel: (channelId) => call('unarchive_channel', { channelId }, reader(ANSWERS.channel)),
    async deleteChannel(channelId) {
      await call('delete_channel', { channelId }, reader(ANSWERS.success));
    },
    removeMember: (channelId, userId) =>
      call('remove_member', { channelId, userId }, reader(ANSWERS.channel)),
    revokeInvitation: (invitationId) =>
      call('revoke_invitation', { invitationId }, reader(ANSWERS.invitation)),
    handOverChannel: (channelId, toUid) =>
      call('hand_over_channel', { channelId, toUid }, reader(ANSWERS.channel)),
    subscribeChannelRemoved(listener) {
      return listenLazily(sdk, 'Live channel removals', ({ sdk: fs, db }) => {
        const uid = sdk.requireUid();
        const channels = fs.collection(db, 'channels');
        // A channel leaves a query when it is deleted, when the person is taken out of it or hands it over, and
        // also when a member is handed it (it leaves the members' query for the owner's, in either order): it is
        // read once more, and it is gone for them when it cannot be read or no longer names them.
        const stillMine = async (id: string): Promise<boolean> => {
          try {
            const snapshot = await fs.getDoc(fs.doc(db, 'channels', id));
            const data = snapshot.exists() ? snapshot.data() : undefined;
            const members: unknown = data?.members;
            return data?.ownerId === uid || (Array.isArray(members) && members.includes(uid));
          } catch {
            return false;
          }
        };
        const follow = (snapshot: QuerySnapshot) => {
          for (const change of snapshot.docChanges()) {
            if (change.type !== 'removed') continue;
            const { id } = change.doc;
            void stillMine(id).then((mine) => {
              if (!mine) listener(id);
            });
          }
        };
        const stops = [
          fs.onSnapshot(fs.query(channels, fs.where('ownerId', '==', uid)), follow),
          fs.onSnapshot(fs.query(channels, fs.where('members', 'array-contains', uid)), follow),
        ];
        return () => stops.forEach((stop) => stop());
      });
    },
  };

  const offers = {
    listMyOffers: () => call('list_my_offers', null, (data) => reader(ANSWERS.receivedOffers)(data).offers),
    withdrawOffer: (offerId: string) => call('withdraw_offer', { offerId }, reader(ANSWERS.storedOffer)),
  };

  return { services, bookings, ledger, housekeeping, offers };
}
