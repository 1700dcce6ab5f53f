// The local adapter: every port on the embedded server's HTTP API (core/wire.ts), live data over its
// Server-Sent Events, and the browser's own Push API as the push provider.
import { BackendError } from '../ports';
import type { AdapterHost } from '../host';
import type { Backend, NewPushToken, ProfilePatch } from '../ports';
import type {
  AdminChannel,
  AdminUser,
  Channel,
  ChannelMember,
  ChannelMute,
  ChannelOverview,
  ChannelPermissions,
  ChatMessage,
  Invitation,
  IssuedOffer,
  Offer,
  PushTokenDoc,
  SignedInSession,
  UserDoc,
} from '@core/model';
import type { ChannelMutes } from '@core/mutes';
import { isMuteEnd } from '@core/mutes';
import type { CallableName } from '@core/schemas';
import type { InvitationPreview } from '@core/invitations';
import type { AccountExport } from '@core/leaving';
import type { CallableResults } from '@core/wire';
import { createLocalAuth } from './auth';
import { OFFLINE_MESSAGE, requestJson } from './http';
import type { Fetch, RequestOptions } from './http';
import { createSessionStore } from './session';
import type { SessionStore } from './session';
import { encodeCursor } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import { createLiveMessages } from './live';
import { createLiveStream } from './stream';
import type { EventSourceLike } from './stream';
import { createWebPushProvider } from './webPush';
import { defaultUpload } from './upload';
import type { Upload } from './upload';
import { errorFromResponse } from './http';
import type { Attachment } from '@core/attachments';

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

const enc = encodeURIComponent;

/** A document read: a missing document is null (as Firestore's getDoc says), every other failure throws. */
async function nullIfNotFound<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof BackendError && error.status === 'NOT_FOUND') return null;
    throw error;
  }
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

  /** An authenticated request; a session the server refuses is dropped (signed out cleanly, never a loop). */
  async function api<T>(path: string, init: Omit<RequestOptions, 'token'> = {}): Promise<T> {
    const token = auth.freshAccessToken() ?? (await auth.getAccessToken());
    try {
      return await requestJson<T>(fetchImpl, `${baseUrl}${path}`, { ...init, token });
    } catch (error) {
      if (error instanceof BackendError && error.status === 'UNAUTHENTICATED') auth.handleRejectedSession();
      throw error;
    }
  }

  async function callable<N extends CallableName>(name: N, data: unknown): Promise<CallableResults[N]> {
    const body = await api<{ result: CallableResults[N] }>(`/api/callable/${name}`, {
      method: 'POST',
      body: { data },
    });
    return body.result;
  }

  const stream = createLiveStream({
    getTicket: async () => (await api<{ ticket: string }>('/api/stream/ticket', { method: 'POST' })).ticket,
    url: (ticket) => `${baseUrl}/api/stream?ticket=${enc(ticket)}`,
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

  /** A page of a channel's messages (core/wire.ts listMessages); `changedAfter`: its changes (issue #13). */
  const listPage = async (
    channelId: string,
    options: { before?: MessageCursor; after?: MessageCursor; changedAfter?: MessageCursor; limit?: number },
  ): Promise<ChatMessage[]> => {
    const { before, after, changedAfter, limit } = options;
    const query = new URLSearchParams();
    if (before !== undefined) query.set('before', encodeCursor(before));
    if (after !== undefined) query.set('after', encodeCursor(after));
    if (changedAfter !== undefined) query.set('changedAfter', encodeCursor(changedAfter));
    if (limit !== undefined) query.set('limit', String(limit));
    const suffix = query.size > 0 ? `?${query.toString()}` : '';
    return (await api<{ messages: ChatMessage[] }>(`/api/channels/${enc(channelId)}/messages${suffix}`))
      .messages;
  };
  const listMessages: Backend['messages']['listMessages'] = (channelId, options = {}) =>
    listPage(channelId, options);
  const upload = options.upload ?? defaultUpload(fetchImpl);

  /** A request whose answer is not JSON (a file), with the same session handling as api(). */
  async function authorized<T>(
    send: (token: string) => Promise<Response>,
    read: (r: Response) => Promise<T>,
  ) {
    const token = auth.freshAccessToken() ?? (await auth.getAccessToken());
    const response = await send(token);
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
    auth,

    users: {
      getUser: (uid) => nullIfNotFound(api<UserDoc>(`/api/users/${enc(uid)}`)),
      updateProfile: (uid, patch: ProfilePatch) =>
        api<UserDoc>(`/api/users/${enc(uid)}`, { method: 'PATCH', body: patch }),
      subscribeUser: (uid, listener) =>
        stream.subscribe((event) => {
          if (event.type === 'user' && event.data.user.uid === uid) listener(event.data.user);
        }),
      exportMyData: (uid) => api<AccountExport>(`/api/users/${enc(uid)}/export`),
      async deleteMyAccount(uid, password) {
        await api(`/api/users/${enc(uid)}`, { method: 'DELETE', body: { password } });
        // The server ended every session of the account: this tab (and the others, through storage) signs out.
        auth.handleRejectedSession();
      },
    },

    channels: {
      getChannel: (id) => nullIfNotFound(api<Channel>(`/api/channels/${enc(id)}`)),
      async findChannelByHandle(channelId) {
        const { channels } = await api<{ channels: Channel[] }>(
          `/api/channels?channelId=${enc(channelId)}&limit=1`,
        );
        return channels[0] ?? null;
      },
      async listMyChannels() {
        return (await api<{ channels: Channel[] }>('/api/channels?mine=true')).channels;
      },
      async listOverview() {
        return (await api<{ channels: ChannelOverview[] }>('/api/channels/overview')).channels;
      },
      createChannel: (input) => api<Channel>('/api/channels', { method: 'POST', body: input }),
      openPrivateChannel: (input) => api<Channel>('/api/private-channels', { method: 'POST', body: input }),
      updateChannel: (id, patch) =>
        api<Channel>(`/api/channels/${enc(id)}`, { method: 'PATCH', body: patch }),
      async listMembers(id) {
        return (await api<{ members: ChannelMember[] }>(`/api/channels/${enc(id)}/members`)).members;
      },
      async markRead(id, upTo, { leaving = false } = {}) {
        await api(`/api/channels/${enc(id)}/read`, {
          method: 'POST',
          body: { messageId: upTo },
          keepalive: leaving,
        });
      },
      subscribeChannels: (listener) =>
        stream.subscribe((event) => {
          if (event.type === 'channel') listener(event.data.channel);
        }),
    },

    mutes: {
      async listMutes() {
        return (await api<{ mutes: ChannelMutes }>('/api/mutes')).mutes;
      },
      muteChannel: (channelId, duration) =>
        api<ChannelMute>(`/api/channels/${enc(channelId)}/mute`, { method: 'PUT', body: { duration } }),
      async unmuteChannel(channelId) {
        await api(`/api/channels/${enc(channelId)}/mute`, { method: 'DELETE' });
      },
      subscribeMutes(listener) {
        // Each `mutes` event carries them all; a read after each (re)open catches up with what the stream, which
        // keeps no replay, missed. A read answered after a newer event is stale and dropped (`seen` moved on).
        let seen = 0;
        let stopped = false;
        const read = async (): Promise<void> => {
          const asked = seen;
          try {
            const mutes = (await api<{ mutes: ChannelMutes }>('/api/mutes')).mutes;
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

    messages: {
      listMessages,
      sendMessage: (channelId, message) =>
        api<ChatMessage>(`/api/channels/${enc(channelId)}/messages`, {
          method: 'POST',
          body: {
            id: message.id,
            text: message.text,
            ...(message.attachment ? { attachmentId: message.attachment.id } : {}),
          },
        }),
      editMessage: (channelId, messageId, text) =>
        api<ChatMessage>(`/api/channels/${enc(channelId)}/messages/${enc(messageId)}`, {
          method: 'PATCH',
          body: { text },
        }),
      deleteMessage: (channelId, messageId) =>
        api<ChatMessage>(`/api/channels/${enc(channelId)}/messages/${enc(messageId)}`, { method: 'DELETE' }),
      uploadAttachment: (channelId, file, name, { onProgress, signal } = {}) =>
        authorized(
          (token) =>
            upload({
              url: `${baseUrl}/api/channels/${enc(channelId)}/attachments?name=${enc(name)}`,
              token,
              body: file,
              onProgress,
              signal,
            }),
          async (response) => {
            try {
              return (await response.json()) as Attachment;
            } catch {
              throw new BackendError('INTERNAL', 'QuPM sent an answer it could not read.');
            }
          },
        ),
      readAttachment: (channelId, attachment) =>
        authorized(
          async (token) => {
            try {
              return await fetchImpl(
                `${baseUrl}/api/channels/${enc(channelId)}/attachments/${enc(attachment.id)}`,
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
      getInvitation: (id) => api<Invitation>(`/api/invitations/${enc(id)}`),
      // No session: the one read a signed-out visitor makes (anyone with the link).
      previewInvitation: (id) =>
        requestJson<InvitationPreview>(fetchImpl, `${baseUrl}/api/invitations/${enc(id)}/preview`),
      acceptInvitation: (id) => api<Invitation>(`/api/invitations/${enc(id)}/accept`, { method: 'POST' }),
      activateInvitation: (id) =>
        api<{ invitation: Invitation; user: UserDoc }>(`/api/invitations/${enc(id)}/activate`, {
          method: 'POST',
        }),
      createInvitation: (input) => api<Invitation>('/api/invitations', { method: 'POST', body: input }),
      async listChannelInvitations(channelId) {
        return (await api<{ invitations: Invitation[] }>(`/api/channels/${enc(channelId)}/invitations`))
          .invitations;
      },
      async listMyInvitations() {
        return (await api<{ invitations: Invitation[] }>('/api/invitations')).invitations;
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
      issueOffer: (input) => api<IssuedOffer>('/api/offers', { method: 'POST', body: input }),
      async listIssuedOffers() {
        return (await api<{ offers: IssuedOffer[] }>('/api/offers/issued')).offers;
      },
      subscribeOffers: (listener) =>
        stream.subscribe((event) => {
          if (event.type === 'offers') listener();
        }),
    },

    admin: {
      async listUsers() {
        return (await api<{ users: AdminUser[] }>('/api/admin/users')).users;
      },
      setConsultant: (uid, isOwner) =>
        api<AdminUser>(`/api/admin/users/${enc(uid)}/role`, { method: 'POST', body: { isOwner } }),
      async listChannels() {
        return (await api<{ channels: AdminChannel[] }>('/api/admin/channels')).channels;
      },
    },

    pushTokens: {
      async findActiveToken(uid, token) {
        const { tokens } = await api<{ tokens: PushTokenDoc[] }>(
          `/api/users/${enc(uid)}/tokens?token=${enc(token)}&status=active`,
        );
        return tokens[0] ?? null;
      },
      addToken: (uid, token: NewPushToken) =>
        api<PushTokenDoc>(`/api/users/${enc(uid)}/tokens`, { method: 'POST', body: token }),
      touchToken: (uid, id) =>
        api<PushTokenDoc>(`/api/users/${enc(uid)}/tokens/${enc(id)}/touch`, { method: 'POST' }),
      async deleteToken(uid, id) {
        await api(`/api/users/${enc(uid)}/tokens/${enc(id)}`, { method: 'DELETE' });
      },
      async listMyTokens(uid) {
        return (await api<{ tokens: PushTokenDoc[] }>(`/api/users/${enc(uid)}/tokens`)).tokens;
      },
    },

    callables: {
      checkChannelPermissions: (payload): Promise<ChannelPermissions> =>
        callable('check_channel_permissions', payload),
      getUserActiveOffers: (): Promise<{ offers: Offer[] }> => callable('get_user_active_offers', null),
      clearPendingNotifications: (payload) => callable('clear_pending_notifications', payload),
    },

    pushProvider: createWebPushProvider(
      async () =>
        (await requestJson<{ vapidPublicKey: string }>(fetchImpl, `${baseUrl}/api/push/config`))
          .vapidPublicKey,
      options.host,
    ),

    sessions: {
      listsEverySession: true,
      async listSessions() {
        return (await api<{ sessions: SignedInSession[] }>('/api/auth/sessions')).sessions;
      },
      async signOutSession(id) {
        await api(`/api/auth/sessions/${enc(id)}`, { method: 'DELETE' });
      },
      async signOutOtherSessions() {
        await api('/api/auth/sessions/revoke-others', { method: 'POST' });
      },
      async changePassword(currentPassword, newPassword) {
        await api('/api/auth/password', { method: 'POST', body: { currentPassword, newPassword } });
      },
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
