// core/imageSize.ts: an image's pixel size from its header, for PNG, GIF, JPEG and WebP (the three WebP kinds),
// and null for a header that gives none, so an image is drawn at its size before it loads.
import { imageDimensions } from '@core/imageSize';
import { gifFile, jpegFile, pngFile, webpFile } from '../../drivers/sampleFiles';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe('imageDimensions', () => {
  it('reads a PNG, a GIF, a JPEG and an extended WebP', () => {
    expect(imageDimensions(pngFile(640, 2), 'image/png')).toEqual({ width: 640, height: 2 });
    expect(imageDimensions(gifFile(300, 7), 'image/gif')).toEqual({ width: 300, height: 7 });
    expect(imageDimensions(jpegFile(1920, 1080), 'image/jpeg')).toEqual({ width: 1920, height: 1080 });
    expect(imageDimensions(webpFile(4000, 3000), 'image/webp')).toEqual({ width: 4000, height: 3000 });
  });

  it('reads a lossless WebP (VP8L)', () => {
    // 14-bit width - 1 and height - 1 packed after the 0x2f signature: 100 × 50.
    const bits = (100 - 1) | ((50 - 1) << 14);
    const header = [...'RIFF'].map((c) => c.charCodeAt(0));
    const file = bytes(
      ...header,
      0,
      0,
      0,
      0,
      ...[...'WEBPVP8L'].map((c) => c.charCodeAt(0)),
      0,
      0,
      0,
      0,
      0x2f,
      bits & 0xff,
      (bits >> 8) & 0xff,
      (bits >> 16) & 0xff,
      (bits >>> 24) & 0xff,
      0,
      0,
      0,
      0,
      0,
    );
    expect(imageDimensions(file, 'image/webp')).toEqual({ width: 100, height: 50 });
  });

  it('reads a lossy WebP (VP8)', () => {
    const file = bytes(
      ...[...'RIFF'].map((c) => c.charCodeAt(0)),
      0,
      0,
      0,
      0,
      ...[...'WEBPVP8 '].map((c) => c.charCodeAt(0)),
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x9d,
      0x01,
      0x2a,
      320 & 0xff,
      320 >> 8,
      240 & 0xff,
      240 >> 8,
      0,
      0,
    );
    expect(imageDimensions(file, 'image/webp')).toEqual({ width: 320, height: 240 });
  });

  it('skips a JPEG’s segments before its frame header', () => {
    const withExif = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x01, 0x02]),
      Buffer.alloc(0x0100),
      jpegFile(800, 600).subarray(2),
    ]);
    expect(imageDimensions(withExif, 'image/jpeg')).toEqual({ width: 800, height: 600 });
  });

  it.each([
    ['a PNG cut short', pngFile(3, 3).subarray(0, 20), 'image/png'],
    ['a PNG of width 0', pngFile(0, 3), 'image/png'],
    [
      'a JPEG without a frame header',
      Buffer.from([0xff, 0xd8, 0xff, 0xd9, 0, 0, 0, 0, 0, 0, 0, 0]),
      'image/jpeg',
    ],
    [
      'a WebP of an unknown kind',
      Buffer.from('RIFF\0\0\0\0WEBPVP9 0000000000000000000000', 'latin1'),
      'image/webp',
    ],
    ['HTML', Buffer.from('<html><body>not an image, not at all</body></html>'), 'image/gif'],
  ] as const)('gives no size for %s', (_label, file, type) => {
    expect(imageDimensions(file, type)).toBeNull();
  });
});
