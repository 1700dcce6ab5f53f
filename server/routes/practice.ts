// The consulting practice's routes (core/wire.ts): services and hours, free times, bookings and their steps, the
// ledger, a person's offers, and the consultant's housekeeping. Each is one call to its service
// (server/services/catalog.ts, bookings.ts, ledger.ts, offers.ts, housekeeping.ts), which decides with core/.
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import {
  acceptProposal,
  cancelBooking,
  completeBooking,
  confirmBooking,
  declineBooking,
  declineProposal,
  getBooking,
  listMyBookings,
  proposeTime,
  refundBooking,
  requestBooking,
} from '../services/bookings';
import {
  createService,
  getAvailability,
  listFreeSlots,
  listServices,
  setAvailability,
  updateService,
} from '../services/catalog';
import {
  archiveChannel,
  deleteChannel,
  describeChannelRemoval,
  handOverChannel,
  removeMember,
  revokeInvitation,
  unarchiveChannel,
  withdrawOffer,
} from '../services/housekeeping';
import { earnings, grantBalance, listLedger } from '../services/ledger';
import { listMyOffers } from '../services/offers';

export const practiceRoutes = (ctx: ServerContext) =>
  ({
    listServices: { handle: ({ caller, params }) => ({ services: listServices(ctx, caller, params.uid) }) },
    createService: { handle: ({ caller, body }) => createService(ctx, caller, body) },
    updateService: { handle: ({ caller, params, body }) => updateService(ctx, caller, params.id, body) },
    getAvailability: {
      handle: ({ caller, params }) => ({ availability: getAvailability(ctx, caller, params.uid) }),
    },
    setAvailability: { handle: ({ caller, body }) => setAvailability(ctx, caller, body) },
    listFreeSlots: { handle: ({ caller, query }) => listFreeSlots(ctx, caller, query) },

    requestBooking: { handle: ({ caller, body }) => requestBooking(ctx, caller, body) },
    listMyBookings: { handle: ({ caller }) => listMyBookings(ctx, caller) },
    getBooking: { handle: ({ caller, params }) => getBooking(ctx, caller, params.id) },
    confirmBooking: {
      handle: ({ caller, params, body }) => confirmBooking(ctx, caller, { bookingId: params.id, ...body }),
    },
    declineBooking: {
      handle: ({ caller, params, body }) => declineBooking(ctx, caller, { bookingId: params.id, ...body }),
    },
    proposeBookingTime: {
      handle: ({ caller, params, body }) => proposeTime(ctx, caller, { bookingId: params.id, ...body }),
    },
    acceptProposedTime: {
      handle: ({ caller, params, body }) => acceptProposal(ctx, caller, { bookingId: params.id, ...body }),
    },
    declineProposedTime: {
      handle: ({ caller, params, body }) => declineProposal(ctx, caller, { bookingId: params.id, ...body }),
    },
    cancelBooking: {
      handle: ({ caller, params, body }) => cancelBooking(ctx, caller, { bookingId: params.id, ...body }),
    },
    completeBooking: {
      handle: ({ caller, params, body }) => completeBooking(ctx, caller, { bookingId: params.id, ...body }),
    },
    refundBooking: {
      handle: ({ caller, params, body }) => refundBooking(ctx, caller, { bookingId: params.id, ...body }),
    },

    grantBalance: { handle: ({ caller, body }) => grantBalance(ctx, caller, body) },
    listMyLedger: { handle: ({ caller }) => listLedger(ctx, caller) },
    getEarnings: { handle: ({ caller }) => earnings(ctx, caller) },
    listMyOffers: { handle: ({ caller }) => ({ offers: listMyOffers(ctx, caller) }) },
    withdrawOffer: { handle: ({ caller, params }) => withdrawOffer(ctx, caller, params.id) },

    describeChannelRemoval: {
      handle: ({ caller, params }) => describeChannelRemoval(ctx, caller, params.id),
    },
    archiveChannel: { handle: ({ caller, params }) => archiveChannel(ctx, caller, params.id) },
    unarchiveChannel: { handle: ({ caller, params }) => unarchiveChannel(ctx, caller, params.id) },
    deleteChannel: { handle: ({ caller, params }) => deleteChannel(ctx, caller, params.id) },
    removeMember: {
      handle: ({ caller, params }) => removeMember(ctx, caller, { channelId: params.id, userId: params.uid }),
    },
    revokeInvitation: { handle: ({ caller, params }) => revokeInvitation(ctx, caller, params.id) },
    handOverChannel: {
      handle: ({ caller, params, body }) => handOverChannel(ctx, caller, { channelId: params.id, ...body }),
    },
  }) satisfies Partial<RouteHandlers>;
