// The local adapter's one way to the server: a route of core/wire.ts's table, its URL built from the table (params
// encoded, the query left out where empty), its method and body, the bearer token when given, and its answer read
// with the route's schema, so that an answer of another shape is a clear BackendError and never reaches a port.
import { BackendError } from '@/backend/ports';
import { UNREADABLE_ANSWER, callRoute, routeUrl } from '@/backend/local/http';
import type { Fetch } from '@/backend/local/http';

interface Sent {
  url: string;
  init: RequestInit | undefined;
}

function answering(status: number, body: unknown): { fetch: Fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: Fetch = async (url, init) => {
    sent.push({ url, init });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, sent };
}

const message = {
  id: 'Message0000000000001',
  channelId: 'ChannelA000000000001',
  senderId: 'uidMember00000000001',
  senderName: 'Morgan',
  text: 'Hello',
  createdAt: 1_700_000_000_000,
};

describe('routeUrl', () => {
  it('fills in the path params, encoded', () => {
    expect(routeUrl('editMessage', { id: 'a/b', messageId: 'c d' })).toBe(
      '/api/channels/a%2Fb/messages/c%20d',
    );
  });

  it('adds the query, without the values left out', () => {
    expect(
      routeUrl(
        'listMessages',
        { id: 'ChannelA000000000001' },
        { after: '5_x', limit: 20, before: undefined },
      ),
    ).toBe('/api/channels/ChannelA000000000001/messages?after=5_x&limit=20');
    expect(routeUrl('stream', undefined, { ticket: 'a b' })).toBe('/api/stream?ticket=a+b');
  });
});

describe('callRoute', () => {
  it('sends the route’s method, JSON body and bearer token to its URL', async () => {
    const { fetch, sent } = answering(200, message);
    const answer = await callRoute(
      fetch,
      'http://server',
      'sendMessage',
      { params: { id: 'ChannelA000000000001' }, body: { text: 'Hello' } },
      { token: 'a.b.c' },
    );
    expect(answer).toEqual(message);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('http://server/api/channels/ChannelA000000000001/messages');
    expect(sent[0]?.init?.method).toBe('POST');
    expect(sent[0]?.init?.body).toBe(JSON.stringify({ text: 'Hello' }));
    expect((sent[0]?.init?.headers as Record<string, string>).Authorization).toBe('Bearer a.b.c');
  });

  it('sends no body and no token where there is none', async () => {
    const { fetch, sent } = answering(200, { vapidPublicKey: 'key' });
    await expect(callRoute(fetch, '', 'pushConfig', {})).resolves.toEqual({ vapidPublicKey: 'key' });
    expect(sent[0]?.init?.method).toBe('GET');
    expect(sent[0]?.init?.body).toBeUndefined();
    expect(sent[0]?.init?.headers).not.toHaveProperty('Authorization');
  });

  it.each([
    ['a field of the wrong type', { ...message, createdAt: 'soon' }],
    ['a missing field', { ...message, senderName: undefined }],
    ['another document', { vapidPublicKey: 'key' }],
    ['not an object', 'null'],
  ])('refuses an answer with %s as a BackendError, not a cast', async (_label, body) => {
    const { fetch } = answering(200, body);
    const call = callRoute(fetch, '', 'sendMessage', { params: { id: 'x' }, body: { text: 'Hello' } });
    await expect(call).rejects.toBeInstanceOf(BackendError);
    await expect(call).rejects.toMatchObject({ status: 'INTERNAL', message: UNREADABLE_ANSWER });
  });

  it('keeps the error an answer carries', async () => {
    const { fetch } = answering(403, { error: { status: 'PERMISSION_DENIED', message: 'Not yours.' } });
    await expect(callRoute(fetch, '', 'getChannel', { params: { id: 'x' } })).rejects.toMatchObject({
      status: 'PERMISSION_DENIED',
      message: 'Not yours.',
    });
  });

  it('takes only routes of the table, with their own inputs', () => {
    const { fetch } = answering(200, {});
    // Type errors, checked by `npm run typecheck`: an unknown route, a missing param, a body of another route.
    // @ts-expect-error: not a route of core/wire.ts
    void callRoute(fetch, '', 'noSuchRoute', {}).catch(() => undefined);
    // @ts-expect-error: editMessage needs its params
    void callRoute(fetch, '', 'editMessage', { body: { text: 'x' } }).catch(() => undefined);
    // @ts-expect-error: markRead's body is { messageId }
    void callRoute(fetch, '', 'markRead', { params: { id: 'x' }, body: { text: 'x' } }).catch(
      () => undefined,
    );
    // @ts-expect-error: the upload is not a JSON route (its body is the file)
    void callRoute(fetch, '', 'uploadAttachment', { params: { id: 'x' }, query: { name: 'a' } }).catch(
      () => undefined,
    );
  });
});
