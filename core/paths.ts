// The app's own links, built once for the screens, the service worker and both backends' push payloads: the open
// channel lives in the home screen's query (`/?channel=<id>`, docs/decisions/client.md), an
// invitation at `/invite/<id>` and its activation at `/activate/<id>`. Paths only, never a full URL: each caller
// puts them on its own origin.

/** The query parameter of `/` that names the open channel. */
export const CHANNEL_PARAM = 'channel';

/** The home screen with `channelId` open: what a channel link and a click on its notification open. */
export function channelPath(channelId: string): string {
  return `/?${CHANNEL_PARAM}=${encodeURIComponent(channelId)}`;
}

/** The query parameter of `/` that names a message to open the channel at (a core/messages.ts cursor). */
export const MESSAGE_PARAM = 'message';

/**
 * The home screen with `channelId` open at one of its messages (a search hit): `message` is the message's cursor
 * (core/messages.ts encodeCursor), so the conversation can load the page around it without another lookup.
 */
export function messagePath(channelId: string, messageCursor: string): string {
  return `${channelPath(channelId)}&${MESSAGE_PARAM}=${encodeURIComponent(messageCursor)}`;
}

/** The invitation's page, where the invitee accepts it. */
export function invitePath(invitationId: string): string {
  return `/invite/${encodeURIComponent(invitationId)}`;
}

/** Where an accepted invitation is activated. */
export function activatePath(invitationId: string): string {
  return `/activate/${encodeURIComponent(invitationId)}`;
}

/** The query parameter of the mailed links' screens that carries the single-use token. */
export const TOKEN_PARAM = 'token';

/** Where the link of a verification mail leads: the screen that confirms the address. */
export function verifyEmailPath(token: string): string {
  return `/verify-email?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/** Where the link of a password-reset mail leads: the screen that sets a new password. */
export function resetPasswordPath(token: string): string {
  return `/reset-password?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/** The services screen (spec §2 /services): a consultant's services, the person's bookings and offers. */
export function servicesPath(bookingId?: string): string {
  return bookingId === undefined ? '/services' : `/services?booking=${encodeURIComponent(bookingId)}`;
}

export const SERVICE_PARAM = 'service';
export const OFFER_PARAM = 'offer';

/** /services with a service's booking open, and the offer to apply ("Use this offer" on an offer's card). */
export function bookServicePath(serviceId: string, offerId?: string): string {
  const query = new URLSearchParams({ [SERVICE_PARAM]: serviceId });
  if (offerId !== undefined) query.set(OFFER_PARAM, offerId);
  return `/services?${query.toString()}`;
}
