// Input limits of QuPM, one place for both backends and the client's forms, with the one predicate the numeric
// ones share. The rules built on them live beside their domain (core/offers.ts isDiscountPercent,
// core/invitations.ts isInvitationGrant, core/expiry.ts, core/messageText.ts, core/email.ts).

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Forms offer a validity of whole days, up to a year. */
const VALIDITY_DAYS_MAX = 365;

export const LIMITS = {
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  displayNameMax: 60,
  nicknameMax: 40,
  /** issue #6: messages longer than this are refused. */
  messageMax: 4000,
  channelTitleMax: 80,
  channelDescriptionMax: 500,
  channelIdMin: 3,
  channelIdMax: 40,
  pushTokenMin: 16,
  pushTokenMax: 8192,
  userAgentMax: 512,
  deviceIdMax: 64,
  messagesPageMax: 100,
  /** Offers: a discount of 1 to 100 percent (ARCHITECTURE.md). */
  discountMin: 1,
  discountMax: 100,
  offerSourceMax: 80,
  /** Passes and credits one invitation may grant. */
  invitationGrantMax: 1000,
  /** Invitations and offers run 1 to 365 whole days, as the consultant's forms offer them. */
  validityDaysMin: 1,
  validityDaysMax: VALIDITY_DAYS_MAX,
  /**
   * The backends accept an expiry at most a year ahead of their own clock, with a day to spare beyond the forms'
   * 365 days (a leap year, a browser clock running ahead of the backend's).
   */
  maxValidityMs: (VALIDITY_DAYS_MAX + 1) * DAY_MS,
  deliveryChannelsMax: 4,
} as const;

/**
 * Delivery channels a user can choose for notifications (spec §3: the list may include 'push'): 'push' for
 * system notifications on their devices, 'in_app' for notices inside an open QuPM window.
 */
export const DELIVERY_CHANNELS = ['push', 'in_app'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export const PLATFORMS = ['ios', 'android', 'web'] as const;

/** What a push token and a device id may contain (core/schemas.ts, firestore.rules, the Firebase adapter). */
export const PUSH_TOKEN_PATTERN = /^[A-Za-z0-9_\-:.]+$/;
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9-]+$/;
/** A channel's public handle (spec §3 channelId): lowercase letters and digits, in words joined by single dashes. */
export const CHANNEL_HANDLE_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A whole number (a safe integer) from `min` to `max`, both included. */
export function isWholeNumberIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}
