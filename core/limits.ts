// Input limits of QuPM, one place for both backends and the client's forms. The rules built on them live beside
// their domain: core/offers.ts isDiscountPercent, core/invitations.ts isInvitationGrant, core/expiry.ts (with the
// validity limits), core/messageText.ts, core/email.ts, core/channels.ts CHANNEL_HANDLE_PATTERN. The app's shell
// carries this module, so it holds the numbers and short patterns the shell needs and little else.

export const LIMITS = {
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  displayNameMax: 60,
  nicknameMax: 40,
  /** A message's stored sender name (a nickname, a display name or an email's local part: all shorter). */
  senderNameMax: 100,
  /** Messages longer than this are refused. */
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
  deliveryChannelsMax: 4,
} as const;

/**
 * Delivery channels a user can choose for notifications (spec §3: the list may include 'push'): 'push' for
 * system notifications on their devices, 'in_app' for notices inside an open QuPM window, 'email' for one email
 * about the messages of a channel still unread after 10 minutes (core/missedMail.ts; never on by
 * default).
 */
export const DELIVERY_CHANNELS = ['push', 'in_app', 'email'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export const PLATFORMS = ['ios', 'android', 'web'] as const;

/** What a push token and a device id may contain (core/schemas.ts, firestore.rules, the Firebase adapter). */
export const PUSH_TOKEN_PATTERN = /^[A-Za-z0-9_\-:.]+$/;
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9-]+$/;
