// On the real server over a temporary SQLite file: members upload images and documents whose
// type their bytes decide, send them with or without text, and download them with headers that keep a file from
// running in QuPM's origin; every bad file (too large, empty, HTML or SVG named .png, a renamed executable, a
// path for a name) and every outsider is refused with a clear message and leaves nothing on disk.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ATTACHMENT_ACCESS_MESSAGES,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  ATTACHMENT_QUOTA_BYTES,
  attachmentQuotaMessage,
} from '../../core/attachments';
import type { Attachment } from '../../core/attachments';
import type { ChatMessage } from '../../core/model';
import {
  docxFile,
  exeFile,
  gifFile,
  htmlFile,
  jpegFile,
  pdfFile,
  pngFile,
  pngOfSize,
  svgWithScript,
  webpFile,
} from '../../drivers/sampleFiles';
import { pushToken } from '../../drivers/webPushTokens';
import { openDatabase } from '../../server/db/database';
import { createRepos } from '../../server/repo';
import type { AttachmentContext } from '../../server/services/attachments';
import {
  deleteMessageAttachments,
  pruneUnsentAttachments,
  UNSENT_ATTACHMENT_TTL_MS,
} from '../../server/services/attachments';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
let folder: string;
beforeEach(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  folder = path.join(server.dir, 'attachments');
});
afterEach(() => server.close());

const upload = (
  token: string | undefined,
  channel: string,
  name: string,
  bytes: Buffer,
  type = 'image/png',
) =>
  server.request('POST', `/api/channels/${channel}/attachments?name=${encodeURIComponent(name)}`, {
    ...(token !== undefined ? { token } : {}),
    payload: bytes,
    contentType: type,
  });
const uploaded = async (token: string, channel: string, name: string, bytes: Buffer, type?: string) => {
  const res = await upload(token, channel, name, bytes, type);
  expect({ code: res.statusCode, body: res.body }).toEqual({ code: 200, body: expect.any(String) });
  return res.json<Attachment>();
};
const send = (token: string, channel: string, body: unknown) =>
  server.request('POST', `/api/channels/${channel}/messages`, { token, body });
const download = (token: string, channel: string, id: string) =>
  server.request('GET', `/api/channels/${channel}/attachments/${id}`, { token });
const filesOnDisk = (): string[] => readdirSync(folder);
const rows = (): number => server.query<{ n: number }>('SELECT COUNT(*) AS n FROM attachments')[0]?.n ?? -1;

describe('an upload', () => {
  it.each([
    ['a PNG', 'sketch.png', pngFile(3, 2), { kind: 'image', contentType: 'image/png', width: 3, height: 2 }],
    [
      'a JPEG',
      'photo.jpeg',
      jpegFile(640, 480),
      { kind: 'image', contentType: 'image/jpeg', width: 640, height: 480 },
    ],
    ['a GIF', 'wave.gif', gifFile(5, 7), { kind: 'image', contentType: 'image/gif', width: 5, height: 7 }],
    [
      'a WebP',
      'still.webp',
      webpFile(300, 200),
      { kind: 'image', contentType: 'image/webp', width: 300, height: 200 },
    ],
    ['a PDF', 'plan.pdf', pdfFile(), { kind: 'document', contentType: 'application/pdf' }],
    [
      'a Word document',
      'brief.docx',
      docxFile(),
      {
        kind: 'document',
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
    ],
  ])(
    'of %s is stored under a new id, with the type and size its bytes say',
    async (_label, name, bytes, expected) => {
      const attachment = await uploaded(
        ids.token.member,
        ids.strategy,
        name,
        bytes,
        'application/octet-stream',
      );
      expect(attachment).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
        name,
        size: bytes.length,
        ...expected,
      });
      // Named by its id, never by the client's name.
      expect(filesOnDisk()).toEqual([attachment.id]);
      expect(
        server.query('SELECT uploader_id, message_id FROM attachments WHERE id = ?', attachment.id),
      ).toEqual([{ uploader_id: ids.uid.member, message_id: null }]);
    },
  );

  it('ignores the declared Content-Type and the extension: a PDF named .png is a document named .png.pdf', async () => {
    const attachment = await uploaded(ids.token.member, ids.strategy, 'holiday.png', pdfFile(), 'image/png');
    expect(attachment).toMatchObject({
      kind: 'document',
      contentType: 'application/pdf',
      name: 'holiday.png.pdf',
    });
  });

  const tooLarge = pngOfSize(ATTACHMENT_MAX_BYTES + 1);
  it.each([
    ['a file of 10 MB and 1 byte', 'big.png', tooLarge, ATTACHMENT_MESSAGES.tooLarge],
    ['an empty file', 'empty.png', Buffer.alloc(0), ATTACHMENT_MESSAGES.empty],
    ['HTML named .png', 'cat.png', htmlFile(), ATTACHMENT_MESSAGES.notAllowed],
    ['SVG with a script named .png', 'logo.png', svgWithScript(), ATTACHMENT_MESSAGES.notAllowed],
    ['a renamed executable', 'invoice.pdf', exeFile(), ATTACHMENT_MESSAGES.notAllowed],
    ['a path for a name', '../../x', pngFile(2, 2), ATTACHMENT_MESSAGES.badName],
    ['a Windows path for a name', '..\\..\\x.png', pngFile(2, 2), ATTACHMENT_MESSAGES.badName],
    ['a name hiding its extension', 'photo\u202egnp.exe', pngFile(2, 2), ATTACHMENT_MESSAGES.badName],
  ])('refuses %s with a clear message and writes nothing', async (_label, name, bytes, message) => {
    const res = await upload(ids.token.member, ids.strategy, name, bytes);
    expect(expectError(res, 400, 'INVALID_ARGUMENT').message).toBe(message);
    expect(filesOnDisk()).toEqual([]);
    expect(rows()).toBe(0);
  });

  it('accepts exactly 10 MB', async () => {
    const attachment = await uploaded(
      ids.token.member,
      ids.strategy,
      'big.png',
      pngOfSize(ATTACHMENT_MAX_BYTES),
    );
    expect(attachment.size).toBe(ATTACHMENT_MAX_BYTES);
  });

  it('refuses someone outside the channel before reading the file, and writes nothing', async () => {
    const res = await upload(ids.token.visitor, ids.strategy, 'sketch.png', pngFile(2, 2));
    expect(expectError(res, 403, 'PERMISSION_DENIED').message).toBe(ATTACHMENT_ACCESS_MESSAGES.notMember);
    // An admin reads messages but is not a member.
    expectError(
      await upload(ids.token.admin, ids.strategy, 'sketch.png', pngFile(2, 2)),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await upload(undefined, ids.strategy, 'sketch.png', pngFile(2, 2)), 401, 'UNAUTHENTICATED');
    expect(filesOnDisk()).toEqual([]);
    expect(rows()).toBe(0);
  });

  it('is limited per person like the other writes', async () => {
    await server.close();
    server = await startTestServer({ rateLimits: { uploads: { max: 2, timeWindowMs: 60_000 } } });
    ids = await demoIds(server);
    folder = path.join(server.dir, 'attachments');
    await uploaded(ids.token.member, ids.strategy, 'a.png', pngFile(1, 1));
    await uploaded(ids.token.member, ids.strategy, 'b.png', pngFile(1, 1));
    const res = await upload(ids.token.member, ids.strategy, 'c.png', pngFile(1, 1));
    expectError(res, 429, 'RESOURCE_EXHAUSTED');
    expect(filesOnDisk()).toHaveLength(2);
  });
});

describe('a message with an attachment', () => {
  it('carries the file with no text, is listed with it, and its push says "Sent a photo"', async () => {
    const token = await server.request('POST', `/api/users/${ids.uid.consultant}/tokens`, {
      token: ids.token.consultant,
      body: { token: pushToken('attach-consultant'), deviceId: 'laptop', platform: 'web', userAgent: 'test' },
    });
    expect(token.statusCode).toBe(200);
    const attachment = await uploaded(ids.token.member, ids.strategy, 'sketch.png', pngFile(4, 3));
    const res = await send(ids.token.member, ids.strategy, { text: '  ', attachmentId: attachment.id });
    expect(res.statusCode).toBe(200);
    const message = res.json<ChatMessage>();
    expect(message).toMatchObject({ text: '', attachments: [attachment] });
    const listed = await server.request('GET', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.consultant,
    });
    expect(listed.json<{ messages: ChatMessage[] }>().messages.at(-1)).toEqual(message);
    const payloads = server.query<{ payload: string }>(
      'SELECT payload FROM push_jobs WHERE message_id = ?',
      message.id,
    );
    expect(payloads.map((row) => JSON.parse(row.payload).notification.body)).toEqual(['Sent a photo']);
  });

  it('carries text and a document together; the push shows the text', async () => {
    const attachment = await uploaded(ids.token.member, ids.strategy, 'plan.pdf', pdfFile());
    const res = await send(ids.token.member, ids.strategy, { text: 'The plan', attachmentId: attachment.id });
    expect(res.json<ChatMessage>()).toMatchObject({
      text: 'The plan',
      attachments: [{ kind: 'document' }],
    });
  });

  it('carries several files in the order sent, each row naming the message (migration 020)', async () => {
    const files = [
      await uploaded(ids.token.member, ids.strategy, 'a.png', pngFile(2, 2)),
      await uploaded(ids.token.member, ids.strategy, 'plan.pdf', pdfFile()),
      await uploaded(ids.token.member, ids.strategy, 'b.png', pngFile(3, 3)),
    ];
    const res = await send(ids.token.member, ids.strategy, {
      text: '',
      attachmentIds: files.map((f) => f.id),
    });
    expect(res.statusCode).toBe(200);
    const message = res.json<ChatMessage>();
    expect(message.attachments).toEqual(files);
    expect(
      server.query<{ n: number }>('SELECT COUNT(*) AS n FROM attachments WHERE message_id = ?', message.id),
    ).toEqual([{ n: 3 }]);
  });

  it('refuses an eleventh file and a file twice, and claims none of them', async () => {
    const files = [];
    for (let i = 0; i < 11; i += 1) {
      files.push(await uploaded(ids.token.member, ids.strategy, `p${i}.png`, pngFile(2, 2)));
    }
    const ids11 = files.map((f) => f.id);
    expectError(
      await send(ids.token.member, ids.strategy, { text: 'x', attachmentIds: ids11 }),
      400,
      'INVALID_ARGUMENT',
    );
    const [first] = ids11;
    expectError(
      await send(ids.token.member, ids.strategy, { text: 'x', attachmentIds: [first, first] }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await send(ids.token.member, ids.strategy, { text: 'x', attachmentId: first, attachmentIds: [first] }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(
      server.query<{ n: number }>('SELECT COUNT(*) AS n FROM attachments WHERE message_id IS NOT NULL'),
    ).toEqual([{ n: 0 }]);
  });

  it('reads a message stored before several files (one attachment object) as a list of one', async () => {
    const attachment = await uploaded(ids.token.member, ids.strategy, 'old.png', pngFile(2, 2));
    const message = (
      await send(ids.token.member, ids.strategy, { text: 'Old', attachmentId: attachment.id })
    ).json<ChatMessage>();
    // What migration 007's rows hold: the object itself, not a list.
    const db = openDatabase(server.dbFile);
    db.prepare('UPDATE messages SET attachment = ? WHERE id = ?').run(JSON.stringify(attachment), message.id);
    db.close();
    const listed = await server.request('GET', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.consultant,
    });
    const found = listed.json<{ messages: ChatMessage[] }>().messages.find((m) => m.id === message.id);
    expect(found?.attachments).toEqual([attachment]);
  });

  it('refuses no text and no file', async () => {
    expectError(await send(ids.token.member, ids.strategy, { text: ' ' }), 400, 'INVALID_ARGUMENT');
    expectError(await send(ids.token.member, ids.strategy, {}), 400, 'INVALID_ARGUMENT');
  });

  it('refuses a file that is someone else’s, sent already, or of another channel, and stores no message', async () => {
    const mine = await uploaded(ids.token.member, ids.strategy, 'sketch.png', pngFile(2, 2));
    const count = () => server.query<{ n: number }>('SELECT COUNT(*) AS n FROM messages')[0]?.n;
    const before = count();
    expect(
      expectError(
        await send(ids.token.consultant, ids.strategy, { text: 'x', attachmentId: mine.id }),
        403,
        'PERMISSION_DENIED',
      ).message,
    ).toBe(ATTACHMENT_ACCESS_MESSAGES.notYours);
    expectError(
      await send(ids.token.consultant, ids.growth, { text: 'x', attachmentId: mine.id }),
      404,
      'NOT_FOUND',
    );
    expect(count()).toBe(before);
    expect((await send(ids.token.member, ids.strategy, { attachmentId: mine.id })).statusCode).toBe(200);
    expectError(
      await send(ids.token.member, ids.strategy, { text: 'again', attachmentId: mine.id }),
      409,
      'ALREADY_EXISTS',
    );
  });
});

describe('a download', () => {
  async function sentFile(name: string, bytes: Buffer): Promise<Attachment> {
    const attachment = await uploaded(ids.token.member, ids.strategy, name, bytes);
    expect((await send(ids.token.member, ids.strategy, { attachmentId: attachment.id })).statusCode).toBe(
      200,
    );
    return attachment;
  }

  it('serves an image inline to a member, never sniffed, sandboxed', async () => {
    const bytes = pngFile(4, 3);
    const attachment = await sentFile('sketch.png', bytes);
    const res = await download(ids.token.consultant, ids.strategy, attachment.id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-disposition': `inline; filename="sketch.png"; filename*=UTF-8''sketch.png`,
      'content-security-policy': "default-src 'none'; sandbox",
      'content-length': String(bytes.length),
    });
  });

  it('serves a document as a download, under its name', async () => {
    const attachment = await sentFile('Plan für 2026.pdf', pdfFile());
    const res = await download(ids.token.member, ids.strategy, attachment.id);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Plan f_r 2026.pdf"; filename*=UTF-8''Plan%20f%C3%BCr%202026.pdf`,
    );
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses someone outside the channel, an admin included', async () => {
    const attachment = await sentFile('sketch.png', pngFile(2, 2));
    for (const token of [ids.token.visitor, ids.token.admin]) {
      const res = await download(token, ids.strategy, attachment.id);
      expect(expectError(res, 403, 'PERMISSION_DENIED').message).toBe(ATTACHMENT_ACCESS_MESSAGES.notMember);
    }
    // Asking through a channel one is a member of does not reach another channel's file.
    expectError(await download(ids.token.consultant, ids.growth, attachment.id), 404, 'NOT_FOUND');
  });

  it('shows an upload not sent yet to its uploader only', async () => {
    const attachment = await uploaded(ids.token.member, ids.strategy, 'draft.png', pngFile(2, 2));
    expect((await download(ids.token.member, ids.strategy, attachment.id)).statusCode).toBe(200);
    expectError(await download(ids.token.consultant, ids.strategy, attachment.id), 404, 'NOT_FOUND');
  });
});

describe('housekeeping', () => {
  /** The service's own context, on a second connection to the server's database. */
  let service: AttachmentContext;
  beforeEach(() => {
    const db = openDatabase(server.dbFile);
    service = {
      db,
      repos: createRepos(db),
      now: server.clock.now,
      attachmentsDir: folder,
      attachmentQuotaBytes: ATTACHMENT_QUOTA_BYTES,
    };
  });
  afterEach(() => service.db.close());

  it('deleting a message deletes its file, its row and the message’s copy', async () => {
    const attachment = await uploaded(ids.token.member, ids.strategy, 'sketch.png', pngFile(2, 2));
    const message = (
      await send(ids.token.member, ids.strategy, { attachmentId: attachment.id })
    ).json<ChatMessage>();
    expect(await deleteMessageAttachments(service, message.id)).toBe(true);
    expect(filesOnDisk()).toEqual([]);
    expect(rows()).toBe(0);
    expect(server.query('SELECT attachment FROM messages WHERE id = ?', message.id)).toEqual([
      { attachment: null },
    ]);
    expectError(await download(ids.token.member, ids.strategy, attachment.id), 404, 'NOT_FOUND');
    // A message without a file: nothing to do.
    expect(await deleteMessageAttachments(service, message.id)).toBe(false);
  });

  it('deleting a message through the API deletes its file (issue #13 part 3 wired in)', async () => {
    const attachment = await uploaded(ids.token.member, ids.strategy, 'sketch.png', pngFile(2, 2));
    const message = (
      await send(ids.token.member, ids.strategy, { attachmentId: attachment.id })
    ).json<ChatMessage>();
    const res = await server.request('DELETE', `/api/channels/${ids.strategy}/messages/${message.id}`, {
      token: ids.token.consultant,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<ChatMessage>()).not.toHaveProperty('attachment');
    expect(rows()).toBe(0);
    for (let i = 0; i < 50 && filesOnDisk().length > 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(filesOnDisk()).toEqual([]);
    expectError(await download(ids.token.member, ids.strategy, attachment.id), 404, 'NOT_FOUND');
  });

  it('removes uploads never sent after a day, and keeps sent ones', async () => {
    const unsent = await uploaded(ids.token.member, ids.strategy, 'a.png', pngFile(2, 2));
    const kept = await uploaded(ids.token.member, ids.strategy, 'b.png', pngFile(2, 2));
    await send(ids.token.member, ids.strategy, { attachmentId: kept.id });
    expect(await pruneUnsentAttachments(service)).toBe(0);
    server.clock.advance(UNSENT_ATTACHMENT_TTL_MS + 1);
    expect(await pruneUnsentAttachments(service)).toBe(1);
    expect(filesOnDisk()).toEqual([kept.id]);
    expect(existsSync(path.join(folder, unsent.id))).toBe(false);
  });

  it('clears what a crash left half-written when the server starts', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qupm-attachments-test-'));
    mkdirSync(path.join(dir, 'attachments'));
    writeFileSync(path.join(dir, 'attachments', 'AbCdEfGhIjKlMnOpQrSt.1234.part'), 'half');
    await server.close();
    server = await startTestServer({ dir });
    expect(readdirSync(path.join(dir, 'attachments'))).toEqual([]);
  });
});

// A person's files (sent and not sent yet) take up at most their quota; an upload past it is refused before it is
// stored, with words that say how much is left, and deleting a file gives its room back.
describe('the storage quota', () => {
  const MB = 1024 * 1024;
  let small: TestServer;
  let smallIds: DemoIds;
  /** A raw request a test left open (its body never finishes); destroyed before the server closes. */
  let pending: http.ClientRequest | undefined;
  beforeEach(async () => {
    small = await startTestServer({ attachmentQuotaBytes: 5 * MB });
    smallIds = await demoIds(small);
  });
  afterEach(async () => {
    pending?.destroy();
    pending = undefined;
    await small.close();
  });

  const put = (token: string, name: string, bytes: Buffer) =>
    small.request('POST', `/api/channels/${smallIds.strategy}/attachments?name=${encodeURIComponent(name)}`, {
      token,
      payload: bytes,
      contentType: 'image/png',
    });

  it('refuses an upload past it with RESOURCE_EXHAUSTED saying how much is left, and stores nothing', async () => {
    expect((await put(smallIds.token.member, 'one.png', pngOfSize(2 * MB))).statusCode).toBe(200);
    expect((await put(smallIds.token.member, 'two.png', pngOfSize(2 * MB))).statusCode).toBe(200);
    const before = small.query('SELECT id FROM attachments');
    const refused = expectError(
      await put(smallIds.token.member, 'three.png', pngOfSize(1.5 * MB)),
      429,
      'RESOURCE_EXHAUSTED',
      'storage-quota',
    );
    expect(refused.message).toBe(
      'Your files can take up 5.0 MB in all, and you have 1.0 MB left: this file (1.5 MB) does not fit.',
    );
    expect(small.query('SELECT id FROM attachments')).toEqual(before);
    expect(readdirSync(path.join(small.dir, 'attachments'))).toHaveLength(2);
    // What still fits is taken.
    expect((await put(smallIds.token.member, 'small.png', pngOfSize(MB))).statusCode).toBe(200);
    const full = expectError(
      await put(smallIds.token.member, 'tiny.png', pngFile(2, 2)),
      429,
      'RESOURCE_EXHAUSTED',
    );
    expect(full.message).toMatch(/^Your files can take up 5\.0 MB in all, and you have no room left: /);
  });

  it('counts sent files too, gives room back when a message and its file are deleted, and is per person', async () => {
    const sent = (await put(smallIds.token.member, 'sent.png', pngOfSize(4 * MB))).json<Attachment>();
    const message = await small.request('POST', `/api/channels/${smallIds.strategy}/messages`, {
      token: smallIds.token.member,
      body: { text: '', attachmentId: sent.id },
    });
    expect(message.statusCode).toBe(200);
    expectError(await put(smallIds.token.member, 'more.png', pngOfSize(2 * MB)), 429, 'RESOURCE_EXHAUSTED');
    // Someone else's room is their own.
    expect((await put(smallIds.token.consultant, 'mine.png', pngOfSize(2 * MB))).statusCode).toBe(200);

    const id = message.json<ChatMessage>().id;
    const deleted = await small.request('DELETE', `/api/channels/${smallIds.strategy}/messages/${id}`, {
      token: smallIds.token.member,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await put(smallIds.token.member, 'more.png', pngOfSize(2 * MB))).statusCode).toBe(200);
  });

  it('refuses before reading the body when the size it declares does not fit', async () => {
    const origin = await small.app.listen({ port: 0, host: '127.0.0.1' });
    // Declares 6 MB and sends a few bytes: answered at once from the header, without waiting for the rest.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        `${origin}/api/channels/${smallIds.strategy}/attachments?name=big.png`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${smallIds.token.member}`,
            'content-type': 'image/png',
            'content-length': String(6 * MB),
          },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => {
            // The rest of the declared body is never sent: the answer came without it.
            request.destroy();
            resolve({ status: response.statusCode ?? 0, body });
          });
        },
      );
      pending = request;
      request.on('error', reject);
      request.write(pngFile(2, 2));
    });
    expect(answer.status).toBe(429);
    expect(answer.body).toContain('you have 5.0 MB left');
  });
});

describe('the default storage quota', () => {
  it('is 1 GB a person, as docs/decisions/attachments.md says', () => {
    expect(ATTACHMENT_QUOTA_BYTES).toBe(1024 * 1024 * 1024);
    expect(
      attachmentQuotaMessage({
        quotaBytes: ATTACHMENT_QUOTA_BYTES,
        usedBytes: ATTACHMENT_QUOTA_BYTES - 3 * 1024 * 1024,
        fileBytes: ATTACHMENT_MAX_BYTES,
      }),
    ).toBe('Your files can take up 1 GB in all, and you have 3.0 MB left: this file (10.0 MB) does not fit.');
  });
});
