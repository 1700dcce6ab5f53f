// Profile pictures: what a person's face may be, how big, and what they are told when one is refused. Written once
// for the embedded server (which sniffs the bytes), the Firebase adapter (which sniffs them before the upload;
// storage.rules repeat the numbers), firestore.rules (the photo field's shape, by test) and Settings → Profile
// (which crops and scales the chosen picture before any of them see it).
import { DOCUMENT_ID_PATTERN } from './ids';

/** The browser crops a square and scales it to this many pixels a side before the upload (a WebP). */
export const PHOTO_SIZE_PX = 256;
/**
 * What a backend keeps: a 256 px WebP is 5 to 40 KB, a PNG fallback (a browser without a WebP encoder) up to
 * about 200 KB; anything larger did not come from the app's own scaling.
 */
export const PHOTO_MAX_BYTES = 512 * 1024;
/** The largest file the browser tries to decode at all (a phone's camera photo is 2 to 15 MB). */
export const PHOTO_SOURCE_MAX_BYTES = 25 * 1024 * 1024;
/** The types a stored face may have, as the bytes say (file-type); WebP is what the app sends. */
export const PHOTO_TYPES = ['image/webp', 'image/png', 'image/jpeg'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
/** Where the embedded server serves a face: the photo's id changes with every upload, so the URL is its version. */
export const LOCAL_PHOTO_PATH = '/api/photos/';
/** A photo URL is at most this long (a Firebase download URL with its token is about 250 characters). */
export const PHOTO_URL_MAX = 1024;

export const PHOTO_MESSAGES = {
  notImage: 'That file is not a picture QuPM can use. Choose a JPEG, PNG or WebP photo.',
  tooLarge: 'That picture is too large: a profile picture can be at most 512 KB.',
  sourceTooLarge: 'That file is too large to use as a picture. Choose one under 25 MB.',
  empty: 'That file is empty. Choose a photo.',
  notYours: 'You can change only your own picture.',
  noSuchPhoto: 'There is no such picture.',
} as const;

export type PhotoProblem = keyof Pick<typeof PHOTO_MESSAGES, 'notImage' | 'tooLarge' | 'empty'>;

/** Whether the bytes may be kept as a face: their size, and the type they say they are (`sniffedType`). */
export function checkPhoto(input: {
  size: number;
  sniffedType: string | undefined;
}): { ok: true; contentType: PhotoType } | { ok: false; problem: PhotoProblem } {
  if (input.size <= 0) return { ok: false, problem: 'empty' };
  if (input.size > PHOTO_MAX_BYTES) return { ok: false, problem: 'tooLarge' };
  const type = PHOTO_TYPES.find((known) => known === input.sniffedType);
  return type ? { ok: true, contentType: type } : { ok: false, problem: 'notImage' };
}

/** A file the browser should not even try to decode: not said to be an image, or far too large. */
export function checkPhotoSource(file: {
  size: number;
  type: string;
}): PhotoProblem | 'sourceTooLarge' | null {
  if (file.size <= 0) return 'empty';
  if (file.size > PHOTO_SOURCE_MAX_BYTES) return 'sourceTooLarge';
  // The type the browser guessed from the name is a hint only; the decoder and the backend decide.
  if (file.type !== '' && !file.type.startsWith('image/')) return 'notImage';
  return null;
}

/** The embedded server's URL of a stored face. */
export function localPhotoURL(photoId: string): string {
  return `${LOCAL_PHOTO_PATH}${photoId}`;
}

/**
 * Whether a value may be shown as a face: the embedded server's path, or an https (or, for the emulators, a
 * loopback http) URL, short. Anything else (javascript:, data:, another scheme) is dropped by the readers.
 */
export function isPhotoURL(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > PHOTO_URL_MAX) return false;
  if (value.startsWith(LOCAL_PHOTO_PATH)) {
    return DOCUMENT_ID_PATTERN.test(value.slice(LOCAL_PHOTO_PATH.length));
  }
  return (
    /^https:\/\/[^\s"'<>]+$/.test(value) ||
    /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/[^\s"'<>]*$/.test(value)
  );
}

/** The faces of the people a channel names, by uid; only valid URLs (a malformed entry reads as no photo). */
export function toPhotoMap(value: unknown): Record<string, string> {
  const photos: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return photos;
  for (const [uid, url] of Object.entries(value as Record<string, unknown>)) {
    if (isPhotoURL(url)) photos[uid] = url;
  }
  return photos;
}
