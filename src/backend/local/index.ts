// The local adapter: every port on the embedded server's HTTP API (core/wire.ts), live data over its
// Server-Sent Events, and the browser's own Push API as the push provider.
import { BackendError } from '../ports';
import type { AdapterHost } from '../host';
import type { Backend, NewPushToken, ProfilePatch } from '../ports';
import type { ChannelPermissions, ChatMessage, Offer } from '@core/model';
import type { ChannelMutes } from '@core/mutes';
import { isMuteEnd } from '@core/mutes';
import type { CallableName } from '@core/schemas';
import { bookingAnswer, CALLABLE_RESULTS } from '@core/answers';
import { ROUTES } from '@core/wire';
import type { CallableResults, JsonRouteName, RouteAnswer } from '@core/wire';
import { createLocalAuth } from './auth';
import { OFFLINE_MESSAGE, UNREADABLE_ANSWER, callRoute, readAnswer, routeUrl } from './http';
import type { Fetch, RequestOptions, RouteCall } from './http';
import { createSessionStore } from './session';
import type { SessionStore } from './session';
import { encodeCursor } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import { createLiveMessages } from './live';
import { createLocalReceipts, createLocalTyping } from './receipts';
import { createLiveStream } from './stream';
import type { EventSourceLike } from './stream';
import { createWebPushProvider } from './webPush';
import { defaultUpload } from './upload';
import type { Upload } from './upload';
import { errorFromResponse } from './http';
import { safeParse } from 'zod/mini';

export interface LocalBackendOptions {
  /** Origin of the embedded server; '' for the page's own origin. */
  baseUrl?: string;
  fetch?: Fetch;
  sessions?: SessionStore;
  openEventSource?: (url: string) => EventSourceLike;
  now?: () => number;
  /** The wait before the n-th reconnect of the live stream (default 1 s doubling to 30 s); tests shorten it. */
  backoff?: (failures: number) => number;
  /** Calls back when the browser comes back online (default: the window's `online` event). */
  onOnline?: (callback: () => void) => void;
  /** The page around the adapter (default: none, so no service-worker registration is known). */
  host?: AdapterHost;
  /** How a file's bytes are sent (default: XMLHttpRequest in a browser, for its progress; fetch elsewhere). */
  upload?: Upload;
}

function windowOnline(callback: () => void): void {
  if (typeof window !== 'undefined') window.addEventListener('online', callback);
}

/** A document read: a missing document is null (as Firestore's getDoc says), every other failure throws. */
async function nullIfNotFound<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof BackendError && error.status === 'NOT_FOUND') return null;
    throw error;
  }
}

/**
 * How long a sign-out waits for the requests already sent with the session's token: revoked under them, they would
 * be refused (a page opened at /logout starts its first reads and its sign-out together).
 */
export const SIGN_OUT_SETTLE_MS = 2_000;

/** The requests under way with the session's token, so a sign-out can let them finish first. */
function requestsUnderWay() {
  const underWay = new Set<Promise<unknown>>();
  return {
    track<T>(request: Promise<T>): Promise<T> {
      underWay.add(request);
      const done = () => void underWay.delete(request);
      request.then(done, done);
      return request;
    },
    /** Resolves once none is under way, or after `ms` (never rejects). */
    async settle(ms: number): Promise<void> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
      let late = false;
      void timeUp.then(() => (late = true));
      while (underWay.size > 0 && !late) await Promise.race([Promise.allSettled([...underWay]), timeUp]);
      clearTimeout(timer);
    },
  };
}

export function createLocalBackend(options: LocalBackendOptions = {}): Backend {
  const baseUrl = options.baseUrl ?? '';
  const fetchImpl: Fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const auth = createLocalAuth({
    baseUrl,
    fetch: fetchImpl,
    sessions: options.sessions ?? createSessionStore(),
    now: options.now,
  });
  const underWay = requestsUnderWay();

  /**
   * Route K of core/wire.ts's table, with the session's token unless the table marks it public; a session the
   * server refuses is dropped (signed out cleanly, never a loop).
   */
  async function call<K extends JsonRouteName>(
    name: K,
    input: RouteCall<K>,
    init: Pick<RequestOptions, 'keepalive'> = {},
  ): Promise<RouteAnswer<K>> {
    if (ROUTES[name].access === 'public') return callRoute(fetchImpl, baseUrl, name, input, init);
    const token = auth.freshAccessToken() ?? (await auth.getAccessToken());
    try {
      return await underWay.track(callRoute(fetchImpl, baseUrl, name, input, { ...init, token }));
    } catch (error) {
      if (error instanceof BackendError && error.status === 'UNAUTHENTICATED') auth.handleRejectedSession();
      throw error;
    }
  }

  /** A callable (spec §7) by name: its result read with its own schema (core/answers.ts CALLABLE_RESULTS). */
  async function callable<N extends CallableName>(name: N, data: unknown): Promise<CallableResults[N]> {
    const { result } = await call('callable', { params: { name }, body: { data } });
    const read = safeParse(CALLABLE_RESULTS[name], result);
    if (!read.success) throw new BackendError('INTERNAL', UNREADABLE_ANSWER);
    return read.data as CallableResults[N];
  }

  const stream = createLiveStream({
    getTicket: async () => (await call('streamTicket', {})).ticket,
    url: (ticket) => `${baseUrl}${routeUrl('stream', undefined, { ticket })}`,
    open: options.openEventSource ?? ((url) => new EventSource(url) as unknown as EventSourceLike),
    backoff: options.backoff,
    // The server ended the stream with the session (signed out elsewhere, or revoked): a session that is really
    // over signs this tab out; one that is not reconnects.
    onSessionEnded: () => void auth.verifySession(),
  });
  auth.onAuthStateChanged((user) => {
    if (user === null) stream.close();
  });
  (options.onOnline ?? windowOnline)(() => stream.wake());

  /** A page of a channel's messages (core/wire.ts listMessages); `changedAfter`: its changes. */
  const listPage = async (
    channelId: string,
    options: { before?: MessageCursor; after?: MessageCursor; changedAfter?: MessageCursor; limit?: number },
  ): Promise<ChatMessage[]> => {
    const { before, after, changedAfter, limit } = options;
    const query = {
      before: before === undefined ? undefined : encodeCursor(before),
      after: after === undefined ? undefined : encodeCursor(after),
      changedAfter: changedAfter === undefined ? undefined : encodeCursor(changedAfter),
      limit,
    };
    return (await call('listMessages', { params: { id: channelId }, query })).messages;
  };
  const listMessages: Backend['messages']['listMessages'] = (channelId, options = {}) =>
    listPage(channelId, options);
  const upload = options.upload ?? defaultUpload(fetchImpl);

  /** An upload's answer, read as JSON (a body that is not is INTERNAL, as api()'s are). */
  const jsonOf = async (response: Response): Promise<unknown> => {
    try {
      return (await response.json()) as unknown;
    } catch {
      throw new BackendError('INTERNAL', UNREADABLE_ANSWER);
    }
  };

  /** A request whose answer is not JSON (a file), with the same session handling as api(). */
  async function authorized<T>(
    send: (token: string) => Promise<Response>,
    read: (r: Response) => Promise<T>,
  ) {
    const token = auth.freshAccessToken() ?? (await auth.getAccessToken());
    const response = await underWay.track(send(token));
    if (response.ok) return read(response);
    const error = await errorFromResponse(response);
    if (error.status === 'UNAUTHENTICATED') auth.handleRejectedSession();
    throw error;
  }

  const live = createLiveMessages({
    stream,
    listAfter: (channelId, after, limit) => listPage(channelId, { after, limit }),
    listChangedAfter: (channelId, changedAfter, limit) => listPage(channelId, { changedAfter, limit }),
    backoff: options.backoff,
  });

  return {
    kind: 'local',
    auth: {
      ...auth,
      signOut: async () => {
        await underWay.settle(SIGN_OUT_SETTLE_MS);
        return auth.signOut();
      },
    },

    users: {
      getUser: (uid) => nullIfNotFound(call('getUser', { params: { uid } })),
      updateProfile: (uid, patch: ProfilePatch) => call('updateUser', { params: { uid }, body: patch }),
      setPhoto: (uid, picture) =>
        authorized(
          (token) => upload({ url: `${baseUrl}${routeUrl('setPhoto', { uid })}`, token, body: picture }),
          async (response) => readAnswer('setPhoto', await jsonOf(response)),
        ),
      removePhoto: (uid) => call('removePhoto', { params: { uid } }),
      subscribeUser: (uid, listener) =>
        stream.subscribe((event) => {
          if (event.type === 'user' && event.data.user.uid === uid) listener(event.data.user);
        }),
      exportMyData: (uid) => call('exportAccount', { params: { uid } }),
      async deleteMyAccount(uid, password) {
        await call('deleteAccount', { params: { uid }, body: { password } });
        // The server ended every session of the account: this tab (and the others, through storage) signs out.
        auth.handleRejectedSession();
      },
    },

    channels: {
      getChannel: (id) => nullIfNotFound(call('getChannel', { params: { id } })),
      async findChannelByHandle(channelId) {
        const { channels } = await call('listChannels', { query: { channelId, limit: '1' } });
        return channels[0] ?? null;
      },
      async listMyChannels() {
        return (await call('listChannels', { query: { mine: 'true' } })).channels;
      },
      async listOverview() {
        return (await call('channelOverview', {})).channels;
      },
      createChannel: (input) => call('createChannel', { body: input }),
      openPrivateChannel: (input) => call('openPrivateChannel', { body: input }),
      updateChannel: (id, patch) => call('updateChannel', { params: { id }, body: patch }),
      async listMembers(id) {
        return (await call('listMembers', { params: { id } })).members;
      },
      async markRead(id, upTo, { leaving = false } = {}) {
        await call('markRead', { params: { id }, body: { messageId: upTo } }, { keepalive: leaving });
      },
      subscribeChannels: (listener) =>
        stream.subscribe((event) => {
          if (event.type === 'channel') listener(event.data.channel);
        }),
    },

    mutes: {
      async listMutes() {
        return (await call('listMutes', {})).mutes;
      },
      muteChannel: (channelId, duration) =>
        call('muteChannel', { params: { id: channelId }, body: { duration } }),
      async unmuteChannel(channelId) {
        await call('unmuteChannel', { params: { id: channelId } });
      },
      subscribeMutes(listener) {
        // Each `mutes` event carries them all; a read after each (re)open catches up with what the stream, which
        // keeps no replay, missed. A read answered after a newer event is stale and dropped (`seen` moved on).
        let seen = 0;
        let stopped = false;
        const read = async (): Promise<void> => {
          const asked = seen;
          try {
            const { mutes } = await call('listMutes', {});
            if (!stopped && seen === asked) listener(mutes);
          } catch {
            // Offline again or signed out: the next open reads again.
          }
        };
        const stopEvents = stream.subscribe((event) => {
          if (event.type !== 'mutes') return;
          seen += 1;
          const mutes = parseChannelMutes(event.data.mutes);
          if (mutes) listener(mutes);
          else void read();
        });
        const stopOpens = stream.onOpen(() => void read());
        return () => {
          stopped = true;
          stopOpens();
          stopEvents();
        };
      },
    },

    receipts: createLocalReceipts(call, stream),
    typing: createLocalTyping(call, stream),

    messages: {
      listMessages,
      sendMessage: (channelId, message) =>
        call('sendMessage', {
          params: { id: channelId },
          body: {
            id: message.id,
            text: message.text,
            ...(message.attachments?.length
              ? { attachmentIds: message.attachments.map((file) => file.id) }
              : {}),
            ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
          },
        }),
      editMessage: (channelId, messageId, text) =>
        call('editMessage', { params: { id: channelId, messageId }, body: { text } }),
      deleteMessage: (channelId, messageId) =>
        call('deleteMessage', { params: { id: channelId, messageId } }),
      reactToMessage: (channelId, messageId, emoji) =>
        call('reactToMessage', { params: { id: channelId, messageId }, body: { emoji } }),
      uploadAttachment: (channelId, file, name, { onProgress, signal } = {}) =>
        authorized(
          (token) =>
            upload({
              url: `${baseUrl}${routeUrl('uploadAttachment', { id: channelId }, { name })}`,
              token,
              body: file,
              onProgress,
              signal,
            }),
          async (response) => readAnswer('uploadAttachment', await jsonOf(response)),
        ),
      readAttachment: (channelId, attachment) =>
        authorized(
          async (token) => {
            try {
              return await fetchImpl(
                `${baseUrl}${routeUrl('downloadAttachment', { id: channelId, attachmentId: attachment.id })}`,
                { headers: { Authorization: `Bearer ${token}` }, credentials: 'same-origin' },
              );
            } catch {
              throw new BackendError('UNAVAILABLE', OFFLINE_MESSAGE);
            }
          },
          (response) => response.blob(),
        ),
      subscribeMessages: live.subscribeMessages,
    },

    live: { subscribeStatus: live.subscribeStatus },

    invitations: {
      getInvitation: (id) => call('getInvitation', { params: { id } }),
      // No session (the table marks it public): the one read a signed-out visitor makes (anyone with the link).
      previewInvitation: (id) => call('previewInvitation', { params: { id } }),
      acceptInvitation: (id) => call('acceptInvitation', { params: { id } }),
      activateInvitation: (id) => call('activateInvitation', { params: { id } }),
      createInvitation: (input) => call('createInvitation', { body: input }),
      async listChannelInvitations(channelId) {
        return (await call('listChannelInvitations', { params: { id: channelId } })).invitations;
      },
      async listMyInvitations() {
        return (await call('listMyInvitations', {})).invitations;
      },
      subscribeMyInvitations(listener) {
        const stopEvents = stream.subscribe((event) => {
          // Anything but the event's one shape is dropped (the stream has already dropped what is not JSON).
          if (event.type === 'invitations' && event.data.changed === true) listener();
        });
        // The stream keeps no replay: whatever changed while it was down is read again once it is back.
        const stopOpens = stream.onOpen(listener);
        return () => {
          stopOpens();
          stopEvents();
        };
      },
    },

    offers: {
      issueOffer: (input) => call('issueOffer', { body: input }),
      async listIssuedOffers() {
        return (await call('listIssuedOffers', {})).offers;
      },
      async listMyOffers() {
        return (await call('listMyOffers', {})).offers;
      },
      withdrawOffer: (id) => call('withdrawOffer', { params: { id } }),
      subscribeOffers: (listener) =>
        stream.subscribe((event) => {
          if (event.type === 'offers') listener();
        }),
    },

    admin: {
      async listUsers() {
        return (await call('adminUsers', {})).users;
      },
      setConsultant: (uid, isOwner) => call('adminSetRole', { params: { uid }, body: { isOwner } }),
      async listChannels() {
        return (await call('adminChannels', {})).channels;
      },
    },

    pushTokens: {
      async findActiveToken(uid, token) {
        const { tokens } = await call('listTokens', { params: { uid }, query: { token, status: 'active' } });
        return tokens[0] ?? null;
      },
      addToken: (uid, token: NewPushToken) => call('addToken', { params: { uid }, body: token }),
      touchToken: (uid, id) => call('touchToken', { params: { uid, id } }),
      async deleteToken(uid, id) {
        await call('deleteToken', { params: { uid, id } });
      },
      async listMyTokens(uid) {
        return (await call('listTokens', { params: { uid }, query: {} })).tokens;
      },
    },

    callables: {
      checkChannelPermissions: (payload): Promise<ChannelPermissions> =>
        callable('check_channel_permissions', payload),
      getUserActiveOffers: (): Promise<{ offers: Offer[] }> => callable('get_user_active_offers', null),
      clearPendingNotifications: (payload) => callable('clear_pending_notifications', payload),
    },

    pushProvider: createWebPushProvider(
      async () => (await call('pushConfig', {})).vapidPublicKey,
      options.host,
    ),

    sessions: {
      listsEverySession: true,
      async listSessions() {
        return (await call('listSessions', {})).sessions;
      },
      async signOutSession(id) {
        await call('revokeSession', { params: { id } });
      },
      async signOutOtherSessions() {
        await call('revokeOtherSessions', {});
      },
      async changePassword(currentPassword, newPassword) {
        await call('changePassword', { body: { currentPassword, newPassword } });
      },
    },

    services: {
      async listServices(uid) {
        return (await call('listServices', { params: { uid } })).services;
      },
      createService: (input) => call('createService', { body: input }),
      updateService: (id, patch) => call('updateService', { params: { id }, body: patch }),
      async getHours(uid) {
        return (await call('getAvailability', { params: { uid } })).availability;
      },
      setHours: (input) => call('setAvailability', { body: input }),
      listFreeSlots: ({ serviceId, from, to }) => call('listFreeSlots', { query: { serviceId, from, to } }),
      subscribeServices(consultantId, listener) {
        const stopEvents = stream.subscribe((event) => {
          if (event.type === 'services' && event.data.consultantId === consultantId) listener();
        });
        // The stream keeps no replay: what changed while it was down is read again once it is back.
        const stopOpens = stream.onOpen(listener);
        return () => {
          stopOpens();
          stopEvents();
        };
      },
    },

    bookings: {
      requestBooking: (input) => call('requestBooking', { body: input }),
      getBooking: (id) => call('getBooking', { params: { id } }),
      listMyBookings: () => call('listMyBookings', {}),
      confirmBooking: (id, body) => call('confirmBooking', { params: { id }, body }),
      declineBooking: (id, body) => call('declineBooking', { params: { id }, body }),
      proposeTime: (id, body) => call('proposeBookingTime', { params: { id }, body }),
      acceptProposal: (id, body) => call('acceptProposedTime', { params: { id }, body }),
      declineProposal: (id, body) => call('declineProposedTime', { params: { id }, body }),
      cancelBooking: (id, body) => call('cancelBooking', { params: { id }, body }),
      completeBooking: (id, body) => call('completeBooking', { params: { id }, body }),
      refundBooking: (id, body) => call('refundBooking', { params: { id }, body }),
      subscribeBookings(listener) {
        const stopEvents = stream.subscribe((event) => {
          if (event.type !== 'booking') return;
          // A booking the answer schema cannot read is not handed on: the list is read again instead.
          const read = safeParse(bookingAnswer, event.data.booking);
          listener(read.success ? read.data : null);
        });
        const stopOpens = stream.onOpen(() => listener(null));
        return () => {
          stopOpens();
          stopEvents();
        };
      },
    },

    ledger: {
      grant: (input) => call('grantBalance', { body: input }),
      listMyLedger: () => call('listMyLedger', {}),
      getEarnings: () => call('getEarnings', {}),
    },

    search: {
      searchMessages: (query) => call('searchMessages', { body: query }),
    },

    housekeeping: {
      describeChannelRemoval: (id) => call('describeChannelRemoval', { params: { id } }),
      archiveChannel: (id) => call('archiveChannel', { params: { id } }),
      unarchiveChannel: (id) => call('unarchiveChannel', { params: { id } }),
      async deleteChannel(id) {
        await call('deleteChannel', { params: { id } });
      },
      removeMember: (id, uid) => call('removeMember', { params: { id, uid } }),
      revokeInvitation: (id) => call('revokeInvitation', { params: { id } }),
      handOverChannel: (id, toUid) => call('handOverChannel', { params: { id }, body: { toUid } }),
      subscribeChannelRemoved: (listener) =>
        stream.subscribe((event) => {
          if (event.type === 'channelRemoved' && typeof event.data.channelId === 'string') {
            listener(event.data.channelId);
          }
          // A member taken out is sent the channel without them (server/services/housekeeping.ts).
          if (event.type === 'channel') {
            const uid = auth.currentUser()?.uid;
            const { channel } = event.data;
            const members: unknown = channel.members;
            if (
              uid !== undefined &&
              Array.isArray(members) &&
              channel.ownerId !== uid &&
              !members.includes(uid)
            ) {
              listener(channel.id);
            }
          }
        }),
    },
  };
}

/** A `mutes` event's mutes, or null when they are not channel ids mapped to mute ends. */
function parseChannelMutes(value: unknown): ChannelMutes | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, until]) => isMuteEnd(until))
    ? (Object.fromEntries(entries) as ChannelMutes)
    : null;
}
