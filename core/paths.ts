// The app's own links, built once for the screens, the service worker and both backends' push payloads: the open
// channel lives in the home screen's query (`/?channel=<id>`, docs/DECISIONS.md "The screens of #6"), an
// invitation at `/invite/<id>` and its activation at `/activate/<id>`. Paths only, never a full URL: each caller
// puts them on its own origin.

/** The query parameter of `/` that names the open channel. */
export const CHANNEL_PARAM = 'channel';

/** The home screen with `channelId` open: what a channel link and a click on its notification open. */
export function channelPath(channelId: string): string {
  return `/?${CHANNEL_PARAM}=${encodeURIComponent(channelId)}`;
}

/** The invitation's page, where the invitee accepts it. */
export function invitePath(invitationId: string): string {
  return `/invite/${encodeURIComponent(invitationId)}`;
}

/** Where an accepted invitation is activated. */
export function activatePath(invitationId: string): string {
  return `/activate/${encodeURIComponent(invitationId)}`;
}
