// The Cloud Storage stand-in spoken to by the real @google-cloud/storage client, as functions/src/storageFiles.ts
// speaks to it through the Admin SDK: given STORAGE_EMULATOR_HOST (what firebase-admin makes of
// FIREBASE_STORAGE_EMULATOR_HOST), and given an apiEndpoint (the /storage/v1 paths).
import { Storage } from '@google-cloud/storage';
import { startCloudStorageStandIn } from '../../drivers/cloudStorageStandIn';
import type { CloudStorageStandIn } from '../../drivers/cloudStorageStandIn';

const BUCKET = 'demo-qupm.appspot.com';
let standIn: CloudStorageStandIn;
let bucket: ReturnType<Storage['bucket']>;

/** The client as the Admin SDK makes it: STORAGE_EMULATOR_HOST set when it is made (it reads it then). */
function clientOf(server: CloudStorageStandIn): ReturnType<Storage['bucket']> {
  const before = process.env.STORAGE_EMULATOR_HOST;
  process.env.STORAGE_EMULATOR_HOST = server.url;
  try {
    return new Storage({ projectId: 'demo-qupm' }).bucket(BUCKET);
  } finally {
    if (before === undefined) delete process.env.STORAGE_EMULATOR_HOST;
    else process.env.STORAGE_EMULATOR_HOST = before;
  }
}

beforeAll(async () => {
  standIn = await startCloudStorageStandIn();
  bucket = clientOf(standIn);
});
afterAll(() => standIn.close());

describe('the Cloud Storage stand-in, to the real client', () => {
  it('lists a prefix’s objects only, with their metadata as Cloud Storage gives it', async () => {
    standIn.put(BUCKET, 'channels/a/attachments/1', 'hello', {
      contentType: 'text/plain',
      metadata: { uploaderId: 'u1' },
    });
    standIn.put(BUCKET, 'channels/ab/attachments/2', 'other channel');
    standIn.put(BUCKET, 'users/a/avatar', 'not a channel');

    const [files] = await bucket.getFiles({ prefix: 'channels/a/', autoPaginate: true });
    expect(files.map((file) => file.name)).toEqual(['channels/a/attachments/1']);
    const [file] = files;
    expect(file?.metadata.size).toBe('5');
    expect(file?.metadata.contentType).toBe('text/plain');
    expect(file?.metadata.metadata).toEqual({ uploaderId: 'u1' });
    expect(Number.isNaN(Date.parse(file?.metadata.timeCreated ?? ''))).toBe(false);

    const [none] = await bucket.getFiles({ prefix: 'channels/zzz/', autoPaginate: true });
    expect(none).toEqual([]);
  });

  it('answers a page at a time with a nextPageToken, which the client follows to the end', async () => {
    const names = Array.from({ length: 7 }, (_, i) => `channels/p/attachments/${i}`);
    for (const name of names) standIn.put(BUCKET, name, name);

    const [first, next] = await bucket.getFiles({
      prefix: 'channels/p/',
      maxResults: 3,
      autoPaginate: false,
    });
    expect(first.map((file) => file.name)).toEqual(names.slice(0, 3));
    expect(next).toEqual(expect.objectContaining({ pageToken: expect.any(String) }));
    const [second, third] = await bucket.getFiles({ ...next, autoPaginate: false });
    expect(second.map((file) => file.name)).toEqual(names.slice(3, 6));
    const [last, after] = await bucket.getFiles({ ...third, autoPaginate: false });
    expect(last.map((file) => file.name)).toEqual(names.slice(6));
    expect(after).toBeNull();

    // A listing the server itself answers in pages of 2: the client asks for the next until there is none.
    const small = await startCloudStorageStandIn({ pageSize: 2 });
    try {
      for (const name of names) small.put(BUCKET, name, name);
      small.put(BUCKET, 'channels/q/attachments/0', 'not under the prefix');
      const [all] = await clientOf(small).getFiles({ prefix: 'channels/p/', autoPaginate: true });
      expect(all.map((file) => file.name)).toEqual(names);
    } finally {
      await small.close();
    }
  });

  it('reads an object’s metadata and bytes, and says whether it exists', async () => {
    standIn.put(BUCKET, 'channels/r/attachments/x', 'some bytes', { contentType: 'image/png' });
    const file = bucket.file('channels/r/attachments/x');
    const [metadata] = await file.getMetadata();
    expect(metadata.name).toBe('channels/r/attachments/x');
    expect(metadata.contentType).toBe('image/png');
    const [data] = await file.download();
    expect(data.toString()).toBe('some bytes');
    expect(await file.exists()).toEqual([true]);
    expect(await bucket.file('channels/r/attachments/none').exists()).toEqual([false]);
  });

  it('deletes one object, and answers 404 for one that is not there', async () => {
    standIn.put(BUCKET, 'channels/d/attachments/1', 'one');
    standIn.put(BUCKET, 'channels/e/attachments/1', 'another');

    await bucket.file('channels/d/attachments/1').delete();
    expect(standIn.names(BUCKET)).not.toContain('channels/d/attachments/1');
    expect(standIn.names(BUCKET)).toContain('channels/e/attachments/1');

    await expect(bucket.file('channels/d/attachments/1').delete()).rejects.toMatchObject({ code: 404 });
    // What functions/src/storageFiles.ts asks for: a missing object is no error.
    await expect(
      bucket.file('channels/d/attachments/1').delete({ ignoreNotFound: true }),
    ).resolves.toBeDefined();
  });

  it('serves the /storage/v1 paths a client given an apiEndpoint sends, and takes a media upload', async () => {
    const upload = await fetch(
      `${standIn.url}/upload/storage/v1/b/${BUCKET}/o?uploadType=media&name=${encodeURIComponent('channels/u/attachments/1')}`,
      { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'uploaded' },
    );
    expect(upload.status).toBe(200);

    const client = new Storage({ projectId: 'demo-qupm', apiEndpoint: standIn.url }).bucket(BUCKET);
    const [files] = await client.getFiles({ prefix: 'channels/u/', autoPaginate: true });
    expect(files.map((file) => [file.name, file.metadata.contentType])).toEqual([
      ['channels/u/attachments/1', 'text/plain'],
    ]);
    await client.file('channels/u/attachments/1').delete();
    expect(standIn.names(BUCKET)).not.toContain('channels/u/attachments/1');
  });
});
