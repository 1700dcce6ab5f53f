// An image's pixel size read from its header bytes (PNG, GIF, JPEG, WebP: the image types of core/attachments.ts),
// so a conversation draws it at its size before it has loaded (no layout shift). Both backends read it: the
// embedded server from the upload, the Firebase adapter from the file before it uploads it. A few dozen lines
// instead of a package: the four headers are fixed formats, and a file they do not describe is refused.
import type { ImageType } from './attachments';

/** An image's width or height in pixels, 1 to this (larger headers are refused as unreadable). */
export const IMAGE_DIMENSION_MAX = 100_000;

export interface ImageDimensions {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number): number => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number): number => u16be(b, at) * 0x10000 + u16be(b, at + 2);
const ascii = (b: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...b.subarray(at, at + length));

function png(b: Uint8Array): ImageDimensions | null {
  // Signature (8), then the IHDR chunk: length (4), "IHDR", width (4), height (4).
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): ImageDimensions | null {
  if (b.length < 10 || ascii(b, 0, 3) !== 'GIF') return null;
  return { width: u16le(b, 6), height: u16le(b, 8) };
}

// Start-of-frame markers (baseline, progressive, …), not DHT (C4), JPG (C8) or DAC (CC).
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Uint8Array): ImageDimensions | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    if (SOF.has(marker)) return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or the scan before any frame header
    at += 2 + u16be(b, at + 2);
  }
  return null;
}

function webp(b: Uint8Array): ImageDimensions | null {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    // The key frame's start code, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  return null;
}

const READERS: Record<ImageType, (bytes: Uint8Array) => ImageDimensions | null> = {
  'image/png': png,
  'image/gif': gif,
  'image/jpeg': jpeg,
  'image/webp': webp,
};

/** The image's width and height in pixels, or null when its header does not give a usable size. */
export function imageDimensions(bytes: Uint8Array, type: ImageType): ImageDimensions | null {
  const size = READERS[type](bytes);
  if (
    !size ||
    size.width < 1 ||
    size.height < 1 ||
    size.width > IMAGE_DIMENSION_MAX ||
    size.height > IMAGE_DIMENSION_MAX
  )
    return null;
  return size;
}
