// The embedded server's callable routes as the real Firebase JS SDK (firebase/functions) sees them, over a real
// socket: a call, a streaming call (`stream()`, Accept: text/event-stream), an error with its reason in
// `details`, and a GET. The SDK's own decoding is the judge: what it reads here is what the
// Firebase adapter would read from a Cloud Function.
import { deleteApp, initializeApp } from 'firebase/app';
import type { FirebaseApp } from 'firebase/app';
import { getFunctions, httpsCallableFromURL } from 'firebase/functions';
import { QupmError } from '../../core/errors';
import { toBackendError } from '@/backend/firebase/errors';
import { errorFromResponse } from '@/backend/local/http';
import { demoIds, startTestServer } from '../server/support/testServer';
import type { DemoIds, TestServer } from '../server/support/testServer';

let server: TestServer;
let ids: DemoIds;
let origin: string;
let app: FirebaseApp;
const realFetch = globalThis.fetch;
/** The session the SDK's calls carry (the SDK would send a Firebase ID token; here the embedded server's). */
let bearer: string | null = null;

beforeAll(async () => {
  server = await startTestServer();
  // A route that refuses with a reason, as an invitation's accept does (added before the server is ready).
  server.app.post('/api/test/refused', async () => {
    throw new QupmError('FAILED_PRECONDITION', 'This invitation was already used.', 'invitation-used');
  });
  ids = await demoIds(server);
  origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  app = initializeApp({ projectId: 'demo-qupm', apiKey: 'demo-key', appId: 'demo-app' }, 'callables');
  globalThis.fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (bearer !== null) headers.set('authorization', `Bearer ${bearer}`);
    return realFetch(input, { ...init, headers });
  };
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await deleteApp(app);
  await server.close();
});

beforeEach(() => {
  bearer = ids.token.member;
});

const callable = (name: string) => httpsCallableFromURL(getFunctions(app), `${origin}/api/callable/${name}`);

describe('the Firebase JS SDK against the embedded server', () => {
  it('calls a callable and decodes its result', async () => {
    const { data } = await callable('check_channel_permissions')({ channel_id: ids.strategy });
    expect(data).toEqual({ permissions: { canMessage: true, isOwner: false } });
  });

  it('answers a streaming call (Accept: text/event-stream) with its result as one event, and ends (it used to hang)', async () => {
    const { stream, data } = await callable('check_channel_permissions').stream({ channel_id: ids.strategy });
    expect(await data).toEqual({ permissions: { canMessage: true, isOwner: false } });
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toEqual([]);
  });

  it('sends the streaming form itself: data: {"result": …}, ended', async () => {
    const res = await realFetch(`${origin}/api/callable/get_user_active_offers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ids.token.member}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ data: null }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toMatch(/^data: \{"result":\{"offers":\[.*\]\}\}\n\n$/);
  });

  it('answers a refused streaming call with the error as an event, which the SDK raises', async () => {
    bearer = null;
    const { data } = await callable('get_user_active_offers').stream(null);
    await expect(data).rejects.toMatchObject({ code: 'functions/unauthenticated' });
    bearer = ids.token.member;
    const invalid = await callable('check_channel_permissions').stream({ channel_id: 42 });
    await expect(invalid.data).rejects.toMatchObject({ code: 'functions/invalid-argument' });
  });

  it('carries an error’s reason in details, where the SDK and both adapters read it', async () => {
    const error: unknown = await httpsCallableFromURL(
      getFunctions(app),
      `${origin}/api/test/refused`,
    )(null).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'functions/failed-precondition',
      details: { reason: 'invitation-used' },
    });
    expect(toBackendError(error)).toMatchObject({ status: 'FAILED_PRECONDITION', reason: 'invitation-used' });
    const res = await realFetch(`${origin}/api/test/refused`, { method: 'POST' });
    expect(await res.clone().json()).toEqual({
      error: {
        status: 'FAILED_PRECONDITION',
        message: 'This invitation was already used.',
        details: { reason: 'invitation-used' },
      },
    });
    expect(await errorFromResponse(res)).toMatchObject({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-used',
    });
  });

  it('answers a GET on a callable INVALID_ARGUMENT, as firebase-functions does', async () => {
    const res = await realFetch(`${origin}/api/callable/get_user_active_offers`, {
      headers: { authorization: `Bearer ${ids.token.member}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('POST') },
    });
  });
});
