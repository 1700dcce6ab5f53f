// Faces in two browsers against the real server: the member chooses a picture in Settings → Profile, moves the
// square, and it leaves the browser as a 256 px WebP; the consultant's open conversation shows it beside the
// member's message at once, without a reload, and initials again once it is removed. A file that is not a
// picture, and a huge one, are refused with words and nothing is sent. Settings → Profile passes axe.
import type { Page, Request } from 'playwright-core';
import { PHOTO_MESSAGES, PHOTO_SIZE_PX, PHOTO_SOURCE_MAX_BYTES } from '../core/photos';
import type { UserDoc } from '../core/model';
import type { SessionResponse } from '../core/wire';
import { htmlFile, pngFile } from '../drivers/sampleFiles';
import { imageDimensions } from '../core/imageSize';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

async function tokenOf(email: string): Promise<SessionResponse> {
  const res = await fetch(`${server.url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'qupm-demo' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as SessionResponse;
}

const isPhotoUpload = (request: Request): boolean =>
  request.method() === 'POST' && /\/api\/users\/[^/]+\/photo$/.test(request.url());

describe('a face chosen in Settings, seen in another window', () => {
  let member: Page;
  let consultant: Page;
  let memberUid: string;
  let errors: string[][] = [];
  const uploads: Request[] = [];

  beforeAll(async () => {
    member = await windows.newPage({ viewport: { width: 1366, height: 768 } });
    consultant = await windows.newPage({ viewport: { width: 390, height: 844 } });
    errors = [watchErrors(member), watchErrors(consultant)];
    member.on('request', (request) => {
      if (isPhotoUpload(request)) uploads.push(request);
    });
    // The member has said something in Strategy Studio, which the consultant has open.
    const session = await tokenOf('member@qupm.demo');
    memberUid = session.user.uid;
    await signIn(consultant, server.url, 'consultant@qupm.demo');
    await consultant.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    await consultant.getByLabel('Message', { exact: true }).waitFor();
    const channelId = new URL(consultant.url()).searchParams.get('channel') ?? '';
    const sent = await fetch(`${server.url}/api/channels/${channelId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'FacesTestMessage0001', text: 'Here is my face' }),
    });
    expect(sent.status).toBe(200);
    await consultant.locator('.message__text', { hasText: 'Here is my face' }).waitFor();
    await signIn(member, server.url, 'member@qupm.demo');
    await member.goto(`${server.url}/settings/profile`);
    await member.getByRole('heading', { name: 'Profile picture' }).waitFor();
  });

  const memberFace = () =>
    consultant.locator('.message-face-row', { hasText: 'Here is my face' }).locator('.avatar');

  it('shows initials beside the member’s message before there is a picture', async () => {
    await expect(memberFace().evaluate((el) => el.tagName)).resolves.toBe('SPAN');
    expect((await memberFace().textContent())?.length).toBeGreaterThan(0);
  });

  it('refuses a file that is not a picture, with words, sending nothing', async () => {
    await member.getByLabel('Choose a picture').setInputFiles({
      name: 'face.png',
      mimeType: 'image/png',
      buffer: htmlFile(),
    });
    await expect(member.getByRole('alert').textContent()).resolves.toBe(PHOTO_MESSAGES.notImage);
    expect(uploads).toHaveLength(0);
  });

  it('refuses a huge file, with words, before reading it', async () => {
    // Made in the page: sending 25 MB through the DevTools protocol takes half a minute.
    await member.getByLabel('Choose a picture').evaluate((input: HTMLInputElement, size: number) => {
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(size)], 'huge.jpg', { type: 'image/jpeg' }));
      input.files = files.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, PHOTO_SOURCE_MAX_BYTES + 1);
    await expect(member.getByRole('alert').textContent()).resolves.toBe(PHOTO_MESSAGES.sourceTooLarge);
    expect(uploads).toHaveLength(0);
  });

  it('crops, scales and sends a 256 px WebP, and the consultant sees it live beside the message', async () => {
    await member.getByLabel('Choose a picture').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: pngFile(900, 600),
    });
    const preview = member.getByRole('img', { name: /Your new picture/ });
    await preview.waitFor();
    await preview.focus();
    await member.keyboard.press('ArrowRight');
    await member.getByLabel('Zoom').fill('1.5');
    const answer = member.waitForResponse((r) => isPhotoUpload(r.request()));
    await member.getByRole('button', { name: 'Use this picture' }).click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const doc = (await response.json()) as UserDoc;
    expect(doc.uid).toBe(memberUid);
    // What the server kept is what the browser made: a WebP, 256 px square.
    const kept = Buffer.from(await (await fetch(server.url + doc.photoURL)).arrayBuffer());
    expect(kept.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(kept.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(imageDimensions(kept, 'image/webp')).toEqual({ width: PHOTO_SIZE_PX, height: PHOTO_SIZE_PX });
    expect(uploads).toHaveLength(1);
    await member.getByText('Picture saved.').waitFor();
    await member.getByRole('img', { name: 'Your profile picture' }).waitFor();
    expect(await member.getByRole('img', { name: 'Your profile picture' }).getAttribute('src')).toBe(
      doc.photoURL,
    );

    // The other window, untouched: the face arrives with the channel's live change.
    await consultant.locator(`.message-face-row img.avatar[src="${doc.photoURL}"]`).first().waitFor();
    const drawn = await consultant
      .locator(`img.avatar[src="${doc.photoURL}"]`)
      .first()
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth);
    expect(drawn).toBe(PHOTO_SIZE_PX);
  });

  it('passes axe on Settings → Profile', async () => {
    await expectAccessible(member, 'settings profile with a picture');
  });

  it('removes the picture: initials again, in both windows', async () => {
    await member.getByRole('button', { name: 'Remove picture' }).click();
    await member.getByText('Picture removed.').waitFor();
    await consultant.locator('.message-face-row span.avatar', { hasText: /\S/ }).first().waitFor();
    await expect(memberFace().evaluate((el) => el.tagName)).resolves.toBe('SPAN');
  });

  afterAll(() => {
    expect(errors.flat()).toEqual([]);
  });
});
