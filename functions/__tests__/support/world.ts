// A small world for the functions' tests: a consultant with a channel and a member, a stranger, an admin, and
// invitations in every state, in a fresh in-memory Firestore.
import type { CallableRequest } from 'firebase-functions/v2/https';
import { createTestBackend, fakeIdToken } from './functionsTest';
import type { TestBackend } from './functionsTest';
import { putChannel, putInvitation, putOffer, putUser } from './seed';

export const NOW = Date.UTC(2026, 0, 15, 12);
/** When requestAs's callers signed in: an hour before NOW, in seconds (an ID token's auth_time). */
export const SIGNED_IN_AT = NOW / 1000 - 3600;
const DAY = 24 * 60 * 60 * 1000;

export const UID = {
  consultant: 'ConsultantUid0000001',
  member: 'MemberUid00000000001',
  stranger: 'StrangerUid000000001',
  admin: 'AdminUid000000000001',
  newcomer: 'NewcomerUid000000001',
} as const;
export type Who = keyof typeof UID;

export const EMAIL: Record<Who, string> = {
  consultant: 'dana@example.com',
  member: 'morgan@example.com',
  stranger: 'sam@example.com',
  admin: 'admin@example.com',
  newcomer: 'nia@example.com',
};

export const CHANNEL = 'ChannelStudio0000001';
export const INVITATION = {
  /** To the stranger, pending. */
  pending: 'InvitePending0000001',
  /** To the stranger, past its date. */
  expired: 'InviteExpired0000001',
  /** To anyone with the link. */
  open: 'InviteOpen0000000001',
  /** Accepted by the stranger, not yet activated. */
  accepted: 'InviteAccepted000001',
  /** Accepted by the stranger, now past its date. */
  acceptedExpired: 'InviteAccExpired0001',
} as const;

export function seededBackend(): TestBackend {
  const backend = createTestBackend(NOW);
  const { store } = backend;
  putUser(store, {
    uid: UID.consultant,
    email: EMAIL.consultant,
    displayName: 'Dana Whitfield',
    nickname: 'Dana',
    isOwner: true,
  });
  putUser(store, {
    uid: UID.member,
    email: EMAIL.member,
    displayName: 'Morgan Reyes',
    effectiveConId: UID.consultant,
  });
  putUser(store, { uid: UID.stranger, email: EMAIL.stranger, displayName: 'Sam Patel' });
  putUser(store, { uid: UID.admin, email: EMAIL.admin, displayName: 'Admin' });
  putChannel(store, {
    id: CHANNEL,
    channelId: 'strategy-studio',
    ownerId: UID.consultant,
    title: 'Strategy Studio',
    members: [UID.member],
    createdAt: NOW - 30 * DAY,
  });
  const invitation = {
    channelId: CHANNEL,
    consultantId: UID.consultant,
    passes: 2,
    credits: 5,
    createdAt: NOW - DAY,
  };
  putInvitation(store, {
    ...invitation,
    id: INVITATION.pending,
    inviteeEmail: EMAIL.stranger,
    status: 'pending',
    expiresAt: NOW + 7 * DAY,
  });
  putInvitation(store, {
    ...invitation,
    id: INVITATION.expired,
    inviteeEmail: EMAIL.stranger,
    status: 'pending',
    expiresAt: NOW - DAY,
  });
  putInvitation(store, { ...invitation, id: INVITATION.open, status: 'pending', expiresAt: NOW + 7 * DAY });
  putInvitation(store, {
    ...invitation,
    id: INVITATION.accepted,
    inviteeEmail: EMAIL.stranger,
    status: 'accepted',
    acceptedBy: UID.stranger,
    expiresAt: NOW + 7 * DAY,
  });
  putInvitation(store, {
    ...invitation,
    id: INVITATION.acceptedExpired,
    inviteeEmail: EMAIL.stranger,
    status: 'accepted',
    acceptedBy: UID.stranger,
    expiresAt: NOW - 1,
  });
  const offer = { userId: UID.member, channelId: CHANNEL, source: 'consultant', createdAt: NOW - DAY };
  putOffer(store, {
    ...offer,
    offeringId: 'OfferLater0000000001',
    discountPercent: 20,
    status: 'active',
    expiresAt: NOW + 14 * DAY,
  });
  putOffer(store, {
    ...offer,
    offeringId: 'OfferSooner000000001',
    discountPercent: 15,
    status: 'active',
    expiresAt: NOW + 2 * DAY,
  });
  putOffer(store, {
    ...offer,
    offeringId: 'OfferExpired00000001',
    discountPercent: 10,
    status: 'active',
    expiresAt: NOW - DAY,
  });
  putOffer(store, {
    ...offer,
    offeringId: 'OfferUsed00000000001',
    discountPercent: 30,
    status: 'used',
    expiresAt: NOW + DAY,
  });
  putOffer(store, {
    ...offer,
    offeringId: 'OfferOfOther00000001',
    userId: UID.stranger,
    discountPercent: 50,
    status: 'active',
    expiresAt: NOW + DAY,
  });
  return backend;
}

/** A callable request as the callable protocol hands it to the function: the verified token's claims, the data. */
export function requestAs(
  who: Who | null,
  data: unknown,
  claims: Record<string, unknown> = {},
): CallableRequest {
  const auth =
    who === null
      ? undefined
      : {
          uid: UID[who],
          // auth_time: the session began an hour before the tests' clock (seconds, as Firebase Auth counts it).
          token: {
            email: EMAIL[who],
            email_verified: true,
            isAdmin: who === 'admin',
            auth_time: SIGNED_IN_AT,
            ...claims,
          },
          // Signed in at the start of the tests' clock (NOW); sessionStands reads it back.
          rawToken: fakeIdToken(UID[who], NOW),
        };
  return { data, auth, rawRequest: {} } as unknown as CallableRequest;
}
