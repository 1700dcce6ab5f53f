// The one world both backends are seeded with for the contract suite: the same people, channels, messages,
// invitations and offers, with the same ids and times, so that every port answer can be compared as it is.
import type { NotificationSettings } from '@core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import type { StoredOffer } from '@core/offers';

/**
 * The world's present. A fixed day, except on the Firebase emulators, whose clocks are the machine's and cannot
 * be set: there the run names its own start (QUPM_CONTRACT_START, emulator/globalSetup.ts), so that the world is
 * as old, by the emulators' clocks, as it is on this day by the other harnesses' clocks.
 */
export const START = Number(process.env.QUPM_CONTRACT_START) || Date.UTC(2026, 0, 15, 12);
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export const PASSWORD = 'contract-pass-1';
/** When every account of the world was created (the admin section lists accounts by it). */
export const ACCOUNTS_CREATED_AT = START - 40 * DAY;

export interface Person {
  uid: string;
  email: string;
  displayName?: string;
  nickname?: string;
  isOwner?: boolean;
  isAdmin?: boolean;
  credits?: number;
  passCount?: number;
  notificationSettings: NotificationSettings;
}

export const PEOPLE = {
  consultant: {
    uid: 'ConsultantUid0000001',
    email: 'dana@qupm.test',
    displayName: 'Dana Whitfield',
    nickname: 'Dana',
    isOwner: true,
    notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
  },
  member: {
    uid: 'MemberUid00000000001',
    email: 'morgan@qupm.test',
    displayName: 'Morgan Reyes',
    nickname: 'Morgan',
    credits: 3,
    passCount: 1,
    notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
  },
  visitor: {
    uid: 'VisitorUid0000000001',
    email: 'sam@qupm.test',
    displayName: 'Sam Patel',
    notificationSettings: { enabled: false, delivery: { channels: [] } },
  },
  admin: {
    uid: 'AdminUid000000000001',
    email: 'admin@qupm.test',
    displayName: 'QuPM Admin',
    isAdmin: true,
    notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
  },
} as const satisfies Record<string, Person>;
export type Who = keyof typeof PEOPLE;

export const CHANNELS = {
  studio: {
    id: 'ChannelStudio0000001',
    channelId: 'strategy-studio',
    ownerId: PEOPLE.consultant.uid,
    title: 'Strategy Studio',
    description: 'Pricing and planning.',
    members: [PEOPLE.member.uid],
    createdAt: START - 30 * DAY,
  },
  clinic: {
    id: 'ChannelClinic0000001',
    channelId: 'growth-clinic',
    ownerId: PEOPLE.consultant.uid,
    title: 'Growth Clinic',
    description: 'Weekly office hours.',
    members: [] as string[],
    createdAt: START - 29 * DAY,
  },
} as const;
export const MEMBER_JOINED_AT = START - 20 * DAY;

export const MESSAGES = [
  {
    id: 'MessageStudio0000001',
    senderId: PEOPLE.consultant.uid,
    senderName: 'Dana',
    text: 'Welcome!',
    createdAt: START - 3 * HOUR,
  },
  {
    id: 'MessageStudio0000002',
    senderId: PEOPLE.member.uid,
    senderName: 'Morgan',
    text: 'Thanks, Dana.',
    createdAt: START - 2 * HOUR,
  },
  {
    id: 'MessageStudio0000003',
    senderId: PEOPLE.consultant.uid,
    senderName: 'Dana',
    text: 'Post your question.',
    createdAt: START - HOUR,
  },
].map((message) => ({ ...message, channelId: CHANNELS.studio.id }));

export const INVITATIONS = {
  /** To the visitor, for Growth Clinic, open for a week. */
  pending: {
    id: 'InvitePending0000001',
    channelId: CHANNELS.clinic.id,
    consultantId: PEOPLE.consultant.uid,
    inviteeEmail: PEOPLE.visitor.email,
    status: 'pending',
    passes: 2,
    credits: 5,
    expiresAt: START + 7 * DAY,
    createdAt: START - DAY,
  },
  /** To the visitor, for Strategy Studio, never accepted and past its date. */
  expired: {
    id: 'InviteExpired0000001',
    channelId: CHANNELS.studio.id,
    consultantId: PEOPLE.consultant.uid,
    inviteeEmail: PEOPLE.visitor.email,
    status: 'pending',
    passes: 1,
    credits: 1,
    expiresAt: START - 2 * DAY,
    createdAt: START - 16 * DAY,
  },
  /** For anyone with the link, for Growth Clinic. */
  open: {
    id: 'InviteOpen0000000001',
    channelId: CHANNELS.clinic.id,
    consultantId: PEOPLE.consultant.uid,
    status: 'pending',
    passes: 0,
    credits: 1,
    expiresAt: START + 7 * DAY,
    createdAt: START - DAY,
  },
  /** The member's, used. */
  used: {
    id: 'InviteUsed0000000001',
    channelId: CHANNELS.studio.id,
    consultantId: PEOPLE.consultant.uid,
    inviteeEmail: PEOPLE.member.email,
    status: 'activated',
    passes: 1,
    credits: 3,
    expiresAt: START + 10 * DAY,
    acceptedBy: PEOPLE.member.uid,
    createdAt: START - 21 * DAY,
  },
} as const;

export const OFFERS = [
  {
    offeringId: 'OfferActive000000001',
    discountPercent: 20,
    status: 'active',
    expiresAt: START + 14 * DAY,
    createdAt: START - 2 * HOUR,
  },
  {
    offeringId: 'OfferExpired00000001',
    discountPercent: 10,
    status: 'active',
    expiresAt: START - 3 * DAY,
    createdAt: START - 20 * DAY,
  },
  {
    offeringId: 'OfferUsed00000000001',
    discountPercent: 30,
    status: 'used',
    expiresAt: START + 3 * DAY,
    createdAt: START - 5 * DAY,
  },
].map((offer): StoredOffer => ({
  ...offer,
  status: offer.status as StoredOffer['status'],
  userId: PEOPLE.member.uid,
  channelId: CHANNELS.studio.id,
  source: 'consultant',
}));
