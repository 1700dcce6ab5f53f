// Attachments in two browsers against the real server: a member sends an image and the
// consultant sees it in their window, drawn at its size, and opens it in the viewer; a pasted image and two dropped
// files go as one message of three thumbnails, and the viewer arrows between them; an eleventh file is refused; a document arrives as a card and downloads with its
// bytes; a renamed executable and a file over 10 MB are refused with words, nothing sent; someone outside the
// channel can neither upload nor download (API). The conversation with files passes axe.
import type { Page } from 'playwright-core';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES } from '../core/attachments';
import type { Attachment } from '../core/attachments';
import type { SessionResponse } from '../core/wire';
import { exeFile, pdfFile, pngFile, pngOfSize } from '../drivers/sampleFiles';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const newPage = (viewport = { width: 1200, height: 860 }) =>
  windows.newPage({ viewport, acceptDownloads: true });

async function openStudio(page: Page, email: string): Promise<string> {
  await signIn(page, server.url, email);
  await page.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
  await page.getByLabel('Message', { exact: true }).waitFor();
  return new URL(page.url()).searchParams.get('channel') ?? '';
}

async function api(
  method: string,
  path: string,
  init: { token?: string; body?: BodyInit; json?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  return fetch(server.url + path, {
    method,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
}

async function tokenOf(email: string): Promise<string> {
  const res = await api('POST', '/api/auth/signin', { json: { email, password: 'qupm-demo' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as SessionResponse).accessToken;
}

const picker = (page: Page) => page.getByTestId('attach-input');

describe('attachments in two windows', () => {
  let member: Page;
  let consultant: Page;
  let channelId: string;
  let sentImage: Attachment | undefined;
  const errors: string[] = [];

  beforeAll(async () => {
    member = await newPage();
    consultant = await newPage({ width: 390, height: 844 });
    errors.push(...watchErrors(member), ...watchErrors(consultant));
    channelId = await openStudio(member, 'member@qupm.demo');
    await openStudio(consultant, 'consultant@qupm.demo');
  });

  it('an image sent by the member shows in the consultant’s window, drawn at its size, and opens full size', async () => {
    const answer = member.waitForResponse(
      (r) => r.url().includes('/attachments?') && r.request().method() === 'POST',
    );
    await picker(member).setInputFiles({
      name: 'sketch.png',
      mimeType: 'image/png',
      buffer: pngFile(320, 200),
    });
    sentImage = (await (await answer).json()) as Attachment;
    await member.getByText('ready to send').waitFor();
    await member.getByRole('button', { name: 'Send', exact: true }).click();

    const image = consultant.getByRole('img', { name: 'sketch.png' });
    await image.waitFor();
    // 320 × 200 drawn at most 280 wide: its box is known before its bytes arrive.
    expect(await image.getAttribute('width')).toBe('280');
    expect(await image.getAttribute('height')).toBe('175');
    await consultant.waitForFunction(
      () =>
        (document.querySelector('img[alt="sketch.png"]') as HTMLImageElement | null)?.naturalWidth === 320,
    );
    // A click opens the image viewer, full size; Escape closes it.
    await consultant.getByRole('button', { name: 'Open sketch.png' }).click();
    const viewer = consultant.getByRole('dialog', { name: 'sketch.png' });
    await viewer.waitFor();
    expect(await viewer.locator('img').getAttribute('src')).toMatch(/^blob:/);
    await consultant.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  });

  it('a pasted image and two dropped files go as one message; the other window shows three thumbnails and the viewer', async () => {
    const box = member.getByLabel('Message', { exact: true });
    // A screenshot pasted from the clipboard (browsers name every one "image.png").
    await box.evaluate(
      (element, bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
        element.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      },
      [...pngFile(60, 40)],
    );
    // Two files dragged from the desktop onto the composer.
    await member.locator('form.composer').evaluate(
      (form, files) => {
        const data = new DataTransfer();
        for (const { name, bytes } of files) {
          data.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/png' }));
        }
        form.dispatchEvent(
          new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
        );
        form.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      },
      [
        { name: 'drop-a.png', bytes: [...pngFile(50, 50)] },
        { name: 'drop-b.png', bytes: [...pngFile(40, 60)] },
      ],
    );
    // Each chosen file shows as a thumbnail before it is sent.
    await member.locator('.composer-file__thumb').nth(2).waitFor();
    expect(await member.locator('.composer-file__thumb').count()).toBe(3);
    await member.getByText('ready to send').nth(2).waitFor();
    await box.fill('Three at once');
    await member.getByRole('button', { name: 'Send', exact: true }).click();

    const message = consultant.locator('.message', { hasText: 'Three at once' });
    await message.waitFor();
    const thumbnails = message.getByRole('button', { name: /^Open / });
    await thumbnails.nth(2).waitFor();
    expect(await thumbnails.count()).toBe(3);
    expect(await thumbnails.nth(0).getAttribute('aria-label')).toMatch(/^Open pasted-.*\.png$/);

    const opener = message.getByRole('button', { name: 'Open drop-a.png' });
    await opener.click();
    const viewer = consultant.getByRole('dialog');
    expect(await viewer.getAttribute('aria-label')).toBe('Image 2 of 3: drop-a.png');
    await consultant.keyboard.press('ArrowRight');
    expect(await viewer.getAttribute('aria-label')).toBe('Image 3 of 3: drop-b.png');
    await expectAccessible(consultant, 'the image viewer');
    await consultant.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await consultant.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Open drop-a.png',
    );
  });

  it('an eleventh file is refused in words before any upload', async () => {
    const uploads: string[] = [];
    const count = (r: { url: () => string }) => {
      if (r.url().includes('/attachments?')) uploads.push(r.url());
    };
    member.on('request', count);
    await picker(member).setInputFiles(
      Array.from({ length: 11 }, (_, i) => ({
        name: `n${i}.png`,
        mimeType: 'image/png',
        buffer: pngFile(2, 2),
      })),
    );
    await member.getByRole('alert').filter({ hasText: 'A message can carry at most 10 files.' }).waitFor();
    expect(uploads).toEqual([]);
    member.off('request', count);
  });

  it('a document arrives as a card and downloads with its bytes', async () => {
    const bytes = pdfFile('the plan');
    await picker(member).setInputFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: bytes });
    await member.getByText('ready to send').waitFor();
    await member.getByLabel('Message', { exact: true }).fill('Here is the plan');
    await member.getByRole('button', { name: 'Send', exact: true }).click();

    await consultant.locator('.message__text', { hasText: 'Here is the plan' }).waitFor();
    const card = consultant.locator('.attachment--document', { hasText: 'plan.pdf' });
    await card.waitFor();
    const download = consultant.waitForEvent('download');
    await card.getByRole('button', { name: 'Download plan.pdf' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('plan.pdf');
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('a renamed executable is refused in words and nothing is sent', async () => {
    const before = await consultant.locator('.message').count();
    await picker(member).setInputFiles({
      name: 'invoice.pdf',
      mimeType: 'application/pdf',
      buffer: exeFile(),
    });
    await member.getByText(ATTACHMENT_MESSAGES.notAllowed).waitFor();
    await member.getByRole('button', { name: 'Remove invoice.pdf' }).click();
    await member.getByLabel('Message', { exact: true }).fill('Only words now');
    await member.getByRole('button', { name: 'Send', exact: true }).click();
    await consultant.locator('.message__text', { hasText: 'Only words now' }).waitFor();
    expect(await consultant.locator('.message').count()).toBe(before + 1);
    expect(await consultant.locator('.attachment', { hasText: 'invoice' }).count()).toBe(0);
  });

  it('a file over 10 MB is refused before it is uploaded', async () => {
    const uploads: string[] = [];
    member.on('request', (r) => {
      if (r.url().includes('/attachments?')) uploads.push(r.url());
    });
    await picker(member).setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: pngOfSize(ATTACHMENT_MAX_BYTES + 1),
    });
    await member.getByRole('alert').filter({ hasText: ATTACHMENT_MESSAGES.tooLarge }).waitFor();
    expect(uploads).toEqual([]);
  });

  it('passes axe with files in the conversation', async () => {
    await expectAccessible(consultant, 'conversation with files');
  });

  it('someone outside the channel can neither upload nor download (API)', async () => {
    if (!sentImage) throw new Error('no image was sent');
    const visitor = await tokenOf('visitor@qupm.demo');
    const upload = await api('POST', `/api/channels/${channelId}/attachments?name=x.png`, {
      token: visitor,
      body: new Uint8Array(pngFile(2, 2)),
    });
    expect(upload.status).toBe(403);
    const download = await api('GET', `/api/channels/${channelId}/attachments/${sentImage.id}`, {
      token: visitor,
    });
    expect(download.status).toBe(403);
    expect(((await download.json()) as { error: { message: string } }).error.message).toBe(
      'Only the members of this channel can send or open its files.',
    );
    // A member gets it, with the headers that keep it from running in QuPM's origin.
    const memberToken = await tokenOf('member@qupm.demo');
    const allowed = await api('GET', `/api/channels/${channelId}/attachments/${sentImage.id}`, {
      token: memberToken,
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(allowed.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('left no page errors', () => {
    expect(errors).toEqual([]);
  });
});
