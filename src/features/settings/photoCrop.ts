// Cropping a chosen picture in the browser: a square of it (the person zooms in and moves it; by default the
// centre, as large as fits), scaled to PHOTO_SIZE_PX and encoded as WebP before anything is uploaded, so a 12 MB
// camera photo leaves the device as about 20 KB. A browser without a WebP encoder gives PNG, which the backends
// keep too (core/photos.ts).
import { PHOTO_SIZE_PX } from '@core/photos';

/** How the square sits on the picture: zoom 1 (the largest square) to ZOOM_MAX, and where, -1 to 1 on each axis. */
export interface Crop {
  zoom: number;
  x: number;
  y: number;
}

export const ZOOM_MAX = 4;
export const CENTRE: Crop = { zoom: 1, x: 0, y: 0 };
/** WebP quality: faces at 256 px show no artefacts at 0.85, and stay under 40 KB. */
const WEBP_QUALITY = 0.85;

const clamp = (value: number, low: number, high: number): number =>
  Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : 0;

/** The crop kept within bounds (any input, from a slider, a drag or a key, lands here). */
export function boundedCrop(crop: Crop): Crop {
  return { zoom: clamp(crop.zoom, 1, ZOOM_MAX) || 1, x: clamp(crop.x, -1, 1), y: clamp(crop.y, -1, 1) };
}

/** The square of the picture (in its own pixels) that the crop takes. */
export function sourceSquare(
  width: number,
  height: number,
  crop: Crop,
): { sx: number; sy: number; side: number } {
  const { zoom, x, y } = boundedCrop(crop);
  const side = Math.min(width, height) / zoom;
  return {
    sx: ((width - side) / 2) * (1 + x),
    sy: ((height - side) / 2) * (1 + y),
    side,
  };
}

/**
 * The crop after a drag of (dx, dy) screen pixels over a preview `previewSize` pixels wide: the picture follows
 * the pointer (dragging right shows more of its left).
 */
export function dragged(
  crop: Crop,
  dx: number,
  dy: number,
  width: number,
  height: number,
  previewSize: number,
): Crop {
  const { side } = sourceSquare(width, height, crop);
  const scale = side / previewSize;
  const travelX = (width - side) / 2;
  const travelY = (height - side) / 2;
  return boundedCrop({
    zoom: crop.zoom,
    x: travelX > 0 ? crop.x - (dx * scale) / travelX : 0,
    y: travelY > 0 ? crop.y - (dy * scale) / travelY : 0,
  });
}

export interface Picture {
  source: CanvasImageSource;
  width: number;
  height: number;
}

/** Draws the crop of the picture onto `canvas`, filling it. */
export function drawCrop(canvas: HTMLCanvasElement, picture: Picture, crop: Crop): void {
  const context = canvas.getContext('2d');
  if (!context) return;
  const { sx, sy, side } = sourceSquare(picture.width, picture.height, crop);
  context.imageSmoothingQuality = 'high';
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.drawImage(picture.source, sx, sy, side, side, 0, 0, canvas.width, canvas.height);
}

/** The crop as the small square picture that is uploaded (WebP, else PNG). */
export function renderPicture(picture: Picture, crop: Crop): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = PHOTO_SIZE_PX;
  canvas.height = PHOTO_SIZE_PX;
  drawCrop(canvas, picture, crop);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be made.'))),
      'image/webp',
      WEBP_QUALITY,
    );
  });
}

/** Decodes a chosen file (upright, as its EXIF says); rejects when it is not a picture the browser can read. */
export async function decodePicture(file: Blob): Promise<Picture & { close(): void }> {
  const bitmap = await createImageBitmap(file);
  return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
}
