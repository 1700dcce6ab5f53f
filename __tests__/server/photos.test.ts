// On the real server over a temporary SQLite file: a person sets, replaces and removes their own profile picture;
// the bytes decide what is a picture; a huge file is refused before it is read; the face's URL changes with every
// upload and is cached for good; and everyone who shares a channel with them is told at once.
import { PHOTO_MAX_BYTES, PHOTO_MESSAGES } from '../../core/photos';
import type { Channel, ChannelMember, UserDoc } from '../../core/model';
import { htmlFile, jpegFile, pngFile, svgWithScript, webpFile } from '../../drivers/sampleFiles';
import { demoStreams } from './support/sse';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
beforeEach(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
});
afterEach(() => server.close());

const putPhoto = (token: string | undefined, uid: string, bytes: Buffer, type = 'image/webp') =>
  server.request('POST', `/api/users/${uid}/photo`, {
    ...(token !== undefined ? { token } : {}),
    payload: bytes,
    contentType: type,
  });
const setPhoto = async (role: 'member' | 'consultant', bytes: Buffer): Promise<UserDoc> => {
  const res = await putPhoto(ids.token[role], ids.uid[role], bytes);
  expect({ code: res.statusCode, body: res.body }).toEqual({ code: 200, body: expect.any(String) });
  return res.json<UserDoc>();
};
const photoRows = (): number => server.query<{ n: number }>('SELECT COUNT(*) AS n FROM photos')[0]?.n ?? -1;

describe('setting a profile picture', () => {
  it.each([
    ['a WebP', webpFile(256, 256), 'image/webp'],
    ['a PNG', pngFile(4, 4), 'image/png'],
    ['a JPEG', jpegFile(4, 4), 'image/jpeg'],
  ])('keeps %s and serves its bytes at the URL the document now carries', async (_, bytes, type) => {
    const user = await setPhoto('member', bytes);
    expect(user.photoURL).toMatch(/^\/api\/photos\/[A-Za-z0-9]{20}$/);
    const res = await server.request('GET', user.photoURL!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await server.request('GET', user.photoURL!, {
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('gives every new picture a new URL, and the old one is gone', async () => {
    const first = await setPhoto('member', webpFile(8, 8));
    const second = await setPhoto('member', pngFile(8, 8));
    expect(second.photoURL).not.toBe(first.photoURL);
    expect((await server.request('GET', first.photoURL!)).statusCode).toBe(404);
    const read = await server.request('GET', `/api/users/${ids.uid.member}`, { token: ids.token.member });
    expect(read.json<UserDoc>().photoURL).toBe(second.photoURL);
    expect(photoRows()).toBe(1);
  });

  it.each([
    ['HTML', htmlFile()],
    ['an SVG with a script', svgWithScript()],
    ['random bytes', Buffer.from('not a picture at all, just words')],
  ])('refuses %s with words, keeping nothing', async (_, bytes) => {
    const error = expectError(
      await putPhoto(ids.token.member, ids.uid.member, bytes),
      400,
      'INVALID_ARGUMENT',
    );
    expect(error.message).toBe(PHOTO_MESSAGES.notImage);
    expect(photoRows()).toBe(0);
  });

  it('refuses an empty body with words', async () => {
    const error = expectError(
      await putPhoto(ids.token.member, ids.uid.member, Buffer.alloc(0)),
      400,
      'INVALID_ARGUMENT',
    );
    expect(error.message).toBe(PHOTO_MESSAGES.empty);
  });

  it('refuses a picture over 512 KB with words, and a huge file before reading it', async () => {
    const over = Buffer.concat([webpFile(8, 8), Buffer.alloc(PHOTO_MAX_BYTES)]);
    expect(
      expectError(await putPhoto(ids.token.member, ids.uid.member, over), 400, 'INVALID_ARGUMENT').message,
    ).toBe(PHOTO_MESSAGES.tooLarge);
    const huge = Buffer.alloc(12 * 1024 * 1024);
    expect(
      expectError(await putPhoto(ids.token.member, ids.uid.member, huge), 400, 'INVALID_ARGUMENT').message,
    ).toBe(PHOTO_MESSAGES.tooLarge);
    expect(photoRows()).toBe(0);
  });

  it("refuses someone else's picture, and anyone signed out", async () => {
    const error = expectError(
      await putPhoto(ids.token.member, ids.uid.consultant, webpFile(8, 8)),
      403,
      'PERMISSION_DENIED',
    );
    expect(error.message).toBe(PHOTO_MESSAGES.notYours);
    expectError(await putPhoto(undefined, ids.uid.member, webpFile(8, 8)), 401, 'UNAUTHENTICATED');
    expectError(
      await server.request('DELETE', `/api/users/${ids.uid.consultant}/photo`, { token: ids.token.member }),
      403,
      'PERMISSION_DENIED',
    );
    expect(photoRows()).toBe(0);
  });

  it('answers an unknown or malformed photo id as not found or invalid, never a 500', async () => {
    expectError(await server.request('GET', '/api/photos/AAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
    expectError(await server.request('GET', '/api/photos/..%2F..%2Fetc'), 400, 'INVALID_ARGUMENT');
  });
});

describe('removing a profile picture', () => {
  it('leaves initials: the document carries no URL and the bytes are gone', async () => {
    const set = await setPhoto('member', webpFile(8, 8));
    const res = await server.request('DELETE', `/api/users/${ids.uid.member}/photo`, {
      token: ids.token.member,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<UserDoc>().photoURL).toBeUndefined();
    expect((await server.request('GET', set.photoURL!)).statusCode).toBe(404);
    expect(photoRows()).toBe(0);
  });

  it('goes with the account', async () => {
    await setPhoto('member', webpFile(8, 8));
    const res = await server.request('DELETE', `/api/users/${ids.uid.member}`, {
      token: ids.token.member,
      body: { password: 'qupm-demo' },
    });
    expect(res.statusCode).toBe(200);
    expect(photoRows()).toBe(0);
  });
});

describe('a face in the channels', () => {
  const streams = demoStreams(() => ({ server, ids }));

  it("is carried by the members list and the channel, and told live to everyone in the member's channels", async () => {
    const consultant = await streams.open('consultant');
    const visitor = await streams.open('visitor');
    const user = await setPhoto('member', webpFile(8, 8));
    const event = await consultant.next('channel');
    const channel = (event.data as { channel: Channel }).channel;
    expect(channel.photos?.[ids.uid.member]).toBe(user.photoURL);
    const members = (
      await server.request('GET', `/api/channels/${ids.strategy}/members`, { token: ids.token.consultant })
    ).json<{ members: ChannelMember[] }>().members;
    expect(members.find((m) => m.uid === ids.uid.member)?.photoURL).toBe(user.photoURL);
    expect(members.find((m) => m.uid === ids.uid.consultant)?.photoURL).toBeUndefined();
    // The visitor shares no channel with the member: told nothing before their own marker.
    await streams.marker('visitor');
    expect((await visitor.before('user')).filter((e) => e.event === 'channel')).toEqual([]);
  });
});
