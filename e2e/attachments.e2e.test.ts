// Attachments in two browsers against the real server: a member sends an image and the
// consultant sees it in their window, drawn at its size; a document arrives as a card and downloads with its
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
    const link = consultant.getByRole('link', { name: /sketch\.png/ });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).toMatch(/^blob:/);
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
