// Renders assets/icon.svg and assets/icon-rounded.svg to the exact-size PNG app icons in public/icons/.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../drivers/chromium';

interface IconJob {
  /** SVG source file name inside assets/. */
  source: 'icon.svg' | 'icon-rounded.svg';
  /** Output file name inside public/icons/. */
  output: string;
  /** Square edge length in pixels. */
  size: number;
}

const root = path.resolve(__dirname, '..');
const assetsDir = path.join(root, 'assets');
const outDir = path.join(root, 'public', 'icons');

const jobs: readonly IconJob[] = [
  // purpose "any": rounded square with transparent corners
  { source: 'icon-rounded.svg', output: 'icon-192.png', size: 192 },
  { source: 'icon-rounded.svg', output: 'icon-512.png', size: 512 },
  // purpose "maskable": full bleed, the mark sits inside the safe zone
  { source: 'icon.svg', output: 'maskable-192.png', size: 192 },
  { source: 'icon.svg', output: 'maskable-512.png', size: 512 },
  // iOS rounds the corners itself, so it gets the full-bleed art
  { source: 'icon.svg', output: 'apple-touch-icon.png', size: 180 },
  { source: 'icon-rounded.svg', output: 'favicon-32.png', size: 32 },
  { source: 'icon-rounded.svg', output: 'favicon-16.png', size: 16 },
  // The header's mark, shown at 28 CSS px: one file per pixel density (srcset 1x, 2x, 3x), so no screen scales it
  { source: 'icon-rounded.svg', output: 'brand-28.png', size: 28 },
  { source: 'icon-rounded.svg', output: 'brand-56.png', size: 56 },
  { source: 'icon-rounded.svg', output: 'brand-84.png', size: 84 },
];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pageHtml(svg: string, size: number): string {
  // Strip any XML prolog so the markup can be inlined; CSS sizing overrides the SVG's own width/height.
  const inline = svg.replace(/^\s*<\?xml[^>]*>\s*/, '');
  return `<!doctype html>
<html>
  <head>
    <style>
      html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
      svg { display: block; width: ${size}px; height: ${size}px; }
    </style>
  </head>
  <body>${inline}</body>
</html>`;
}

async function render(page: Page, svg: string, size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(pageHtml(svg, size), { waitUntil: 'load' });
  return page.screenshot({
    type: 'png',
    omitBackground: true,
    clip: { x: 0, y: 0, width: size, height: size },
  });
}

function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new Error('not a PNG file');
  }
  // IHDR is the first chunk: width at bytes 16-19, height at bytes 20-23 (big-endian).
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function verify(): Promise<void> {
  for (const job of jobs) {
    const file = path.join(outDir, job.output);
    const { width, height } = pngSize(await readFile(file));
    if (width !== job.size || height !== job.size) {
      throw new Error(`${job.output} is ${width}x${height}, expected ${job.size}x${job.size}`);
    }
  }
}

async function main(): Promise<void> {
  const sources = new Map<IconJob['source'], string>();
  for (const name of ['icon.svg', 'icon-rounded.svg'] as const) {
    sources.set(name, await readFile(path.join(assetsDir, name), 'utf8'));
  }
  await mkdir(outDir, { recursive: true });

  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ deviceScaleFactor: 1, viewport: { width: 512, height: 512 } });
    const page = await context.newPage();
    for (const job of jobs) {
      const svg = sources.get(job.source);
      if (svg === undefined) throw new Error(`missing source ${job.source}`);
      const png = await render(page, svg, job.size);
      await writeFile(path.join(outDir, job.output), png);
      console.log(`wrote public/icons/${job.output} (${job.size}x${job.size})`);
    }
    await context.close();
  } finally {
    await browser.close();
  }

  await verify();
  console.log(`verified ${jobs.length} icons`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
