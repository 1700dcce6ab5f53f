// Attachments: which files a message may carry, how big, under which name, and what a person
// is told when one is refused. Written once for the embedded server (which sniffs the bytes), the Firebase
// adapter (which sniffs them before the upload; storage.rules repeats the numbers, __tests__/rules checks that),
// the composer and the push text. The type is always the one the bytes say (file-type), never the name's
// extension or a Content-Type a client declares.
import { DOCUMENT_ID_PATTERN } from './ids';
import { IMAGE_DIMENSION_MAX, imageDimensions } from './imageSize';

/** Images and documents up to 10 MB. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/**
 * An upload no message took is removed after this long: by the embedded server's housekeeping, and by functions/
 * prune_unsent_attachments in Cloud Storage. Long enough for a person who chose a file to finish their message.
 */
export const UNSENT_ATTACHMENT_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * What one person's files may take up in all, sent and not sent yet (docs/decisions/attachments.md): 100 files at
 * the 10 MB limit, or about 300 phone photos. The embedded server checks it before and after an upload (and may
 * be given another number by its operator); on Firebase firestore.rules refuse an upload record that does not fit
 * the count functions/ keep (storage.rules hold the bytes to the record), and check_attachment_upload removes one
 * that got past a race.
 */
export const ATTACHMENT_QUOTA_BYTES = 1024 * 1024 * 1024;
/**
 * How many files one message carries at most (a messenger's album; firestore.rules spell out ten places, and a
 * write's 1,000 rule expressions hold ten claims).
 */
export const ATTACHMENT_COUNT_MAX = 10;
/** A stored file name is cut to this many characters (its extension kept). */
export const ATTACHMENT_NAME_MAX = 120;

export type AttachmentKind = 'image' | 'document';

/** The types a message may carry, by the MIME type file-type reports, with the extension a name should end in. */
export const IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const;

/**
 * Documents: PDF and the office formats file-type can tell apart by their bytes (OOXML and OpenDocument are zip
 * containers it opens). Not plain text or CSV: bytes without a signature cannot be told from HTML or SVG, and a
 * text fits in a message. Not the old binary Office formats: file-type sees only a generic container (CFB),
 * which installers share.
 */
export const DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
} as const;

export type ImageType = keyof typeof IMAGE_TYPES;
export type DocumentType = keyof typeof DOCUMENT_TYPES;
export type AttachmentType = ImageType | DocumentType;

/** The file input's `accept`: a hint for the picker only; the bytes decide. */
export const ATTACHMENT_ACCEPT = [
  ...Object.keys(IMAGE_TYPES),
  ...Object.keys(DOCUMENT_TYPES),
  ...Object.values(IMAGE_TYPES).map((ext) => `.${ext}`),
  '.jpeg',
  ...Object.values(DOCUMENT_TYPES).map((ext) => `.${ext}`),
].join(',');

/** A file a message carries, as both backends store it beside the message. */
export interface Attachment {
  /** A document id's shape; the file is stored under it, never under its name. */
  id: string;
  kind: AttachmentKind;
  /** The name shown and offered for download (core's checkAttachmentName, extension matching the type). */
  name: string;
  contentType: AttachmentType;
  /** Bytes. */
  size: number;
  /** Images only: the pixel size, read from the file's header, so it is drawn without a layout shift. */
  width?: number;
  height?: number;
}

export type AttachmentProblem = 'empty' | 'tooLarge' | 'notAllowed' | 'badName' | 'imageUnreadable';

/** The backends' words for a refused file, for a person. */
export const ATTACHMENT_MESSAGES: Record<AttachmentProblem, string> = {
  empty: 'This file is empty.',
  tooLarge: 'A file can be at most 10 MB.',
  notAllowed:
    'Only images (PNG, JPEG, WebP, GIF) and documents (PDF, Word, Excel, PowerPoint, OpenDocument) can be sent.',
  badName: 'The file name cannot contain slashes or control characters. Rename the file and try again.',
  imageUnreadable: 'This image could not be read. Save it again and try again.',
};

/** The further refusals around a file. */
export const ATTACHMENT_ACCESS_MESSAGES = {
  notMember: 'Only the members of this channel can send or open its files.',
  noSuchFile: 'This file is not available any more.',
  alreadySent: 'This file was already sent with another message.',
  notYours: 'This file was uploaded by someone else.',
  tooMany: `A message can carry at most ${ATTACHMENT_COUNT_MAX} files.`,
  twice: 'The same file cannot be sent twice in one message.',
} as const;

export function isAttachmentType(value: unknown): value is AttachmentType {
  return (
    typeof value === 'string' && (Object.hasOwn(IMAGE_TYPES, value) || Object.hasOwn(DOCUMENT_TYPES, value))
  );
}

/** 'image' or 'document' for an allowed type (as the bytes say), null for anything else. */
export function attachmentKind(contentType: string | undefined): AttachmentKind | null {
  if (contentType === undefined) return null;
  if (Object.hasOwn(IMAGE_TYPES, contentType)) return 'image';
  if (Object.hasOwn(DOCUMENT_TYPES, contentType)) return 'document';
  return null;
}

/** Too small or too large, or null when the size is fine. */
export function checkAttachmentSize(size: number): 'empty' | 'tooLarge' | null {
  if (!Number.isSafeInteger(size) || size <= 0) return 'empty';
  if (size > ATTACHMENT_MAX_BYTES) return 'tooLarge';
  return null;
}

// Slashes (a path), backslashes, and control characters (C0, DEL, C1, bidi overrides that disguise an extension).
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_NAME = /[/\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export type AttachmentNameCheck = { ok: true; name: string } | { ok: false; problem: 'badName' };

/**
 * The name a person gave the file, as it is stored: trimmed, no path or control characters (refused, not
 * cleaned: `../../x` is a mistake or an attack, either way not a name), not `.` or `..`, cut to
 * ATTACHMENT_NAME_MAX keeping its extension.
 */
export function checkAttachmentName(raw: unknown): AttachmentNameCheck {
  if (typeof raw !== 'string') return { ok: false, problem: 'badName' };
  const name = raw.trim();
  if (name === '' || name === '.' || name === '..' || FORBIDDEN_IN_NAME.test(name)) {
    return { ok: false, problem: 'badName' };
  }
  if (name.length <= ATTACHMENT_NAME_MAX) return { ok: true, name };
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  return { ok: true, name: `${name.slice(0, ATTACHMENT_NAME_MAX - ext.length).trimEnd()}${ext}` };
}

/** The extension a file of this type should have (jpg for JPEG, which also accepts .jpeg). */
export function extensionOf(contentType: AttachmentType): string {
  return Object.hasOwn(IMAGE_TYPES, contentType)
    ? IMAGE_TYPES[contentType as ImageType]
    : DOCUMENT_TYPES[contentType as DocumentType];
}

/**
 * The name a download is offered under: the person's, with the real type's extension added when theirs says
 * something else ("report.png" that is a PDF downloads as "report.png.pdf"), so no program opens it as what it
 * is not.
 */
export function storedName(name: string, contentType: AttachmentType): string {
  const ext = extensionOf(contentType);
  const lower = name.toLowerCase();
  const fits = lower.endsWith(`.${ext}`) || (ext === 'jpg' && lower.endsWith('.jpeg'));
  return fits ? name : `${name}.${ext}`;
}

/** "2.4 MB", "830 KB", "12 bytes", "1 GB": a file's size (or a quota) for a person. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Number((bytes / (1024 * 1024 * 1024)).toFixed(1))} GB`;
}

/** Whether a file of `fileBytes` fits in what is left of a person's quota. */
export function fitsQuota(input: { quotaBytes: number; usedBytes: number; fileBytes: number }): boolean {
  return input.usedBytes + input.fileBytes <= input.quotaBytes;
}

/** The refusal of a file that does not fit a person's quota, saying how much room is left (both backends). */
export function attachmentQuotaMessage(input: {
  quotaBytes: number;
  usedBytes: number;
  fileBytes: number;
}): string {
  const left = Math.max(0, input.quotaBytes - input.usedBytes);
  const room = left === 0 ? 'no room left' : `${formatFileSize(left)} left`;
  return (
    `Your files can take up ${formatFileSize(input.quotaBytes)} in all, and you have ${room}: ` +
    `this file (${formatFileSize(input.fileBytes)}) does not fit.`
  );
}

const isDimension = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= IMAGE_DIMENSION_MAX;

/**
 * An attachment as stored beside a message (a Firestore field, an outbox entry on the device, JSON in SQLite),
 * or null when it is not one: read defensively, since clients write Firestore's copy.
 */
export function toAttachment(value: unknown): Attachment | null {
  if (typeof value !== 'object' || value === null) return null;
  const data = value as Record<string, unknown>;
  const { id, name, contentType, size, width, height } = data;
  if (typeof id !== 'string' || !DOCUMENT_ID_PATTERN.test(id)) return null;
  if (!isAttachmentType(contentType)) return null;
  const kind = attachmentKind(contentType);
  if (kind === null || data.kind !== kind) return null;
  const checkedName = checkAttachmentName(name);
  if (!checkedName.ok || checkedName.name !== name) return null;
  if (typeof size !== 'number' || checkAttachmentSize(size) !== null) return null;
  if (kind === 'document') return { id, kind, name, contentType, size };
  if (!isDimension(width) || !isDimension(height)) return null;
  return { id, kind, name, contentType, size, width, height };
}

/**
 * A message's files as stored (a JSON array in SQLite, a Firestore list, an outbox entry): 1 to
 * ATTACHMENT_COUNT_MAX of them, each read as toAttachment reads one, no id twice. A message from before several
 * files (one `attachment` object) reads as a list of one. Null when it is none of these.
 */
export function toAttachmentList(value: unknown): Attachment[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    const single = toAttachment(value);
    return single ? [single] : null;
  }
  if (value.length === 0 || value.length > ATTACHMENT_COUNT_MAX) return null;
  const list = value.map(toAttachment);
  if (list.some((item) => item === null)) return null;
  const files = list as Attachment[];
  return new Set(files.map((file) => file.id)).size === files.length ? files : null;
}

/** A message's files from its stored fields: the list, or the single file of a message from before lists. */
export function attachmentsOf(data: { attachments?: unknown; attachment?: unknown }): Attachment[] {
  return toAttachmentList(data.attachments) ?? toAttachmentList(data.attachment) ?? [];
}

export type FileCheck =
  { ok: true; file: Omit<Attachment, 'id'> } | { ok: false; problem: AttachmentProblem };

/**
 * Everything both backends decide about a file before they store it, in order: its name, its size, the type its
 * bytes are (`sniffedType`: what file-type reported, undefined when it knew none), and an image's pixel size.
 */
export function checkFile(input: {
  name: unknown;
  bytes: Uint8Array;
  sniffedType: string | undefined;
}): FileCheck {
  const name = checkAttachmentName(input.name);
  if (!name.ok) return name;
  const sizeProblem = checkAttachmentSize(input.bytes.length);
  if (sizeProblem) return { ok: false, problem: sizeProblem };
  const kind = attachmentKind(input.sniffedType);
  if (kind === null || !isAttachmentType(input.sniffedType)) return { ok: false, problem: 'notAllowed' };
  const contentType = input.sniffedType;
  const file = { kind, contentType, name: storedName(name.name, contentType), size: input.bytes.length };
  if (kind === 'document') return { ok: true, file };
  const dimensions = imageDimensions(input.bytes, contentType as ImageType);
  if (!dimensions) return { ok: false, problem: 'imageUnreadable' };
  return { ok: true, file: { ...file, ...dimensions } };
}

/**
 * A file already stored, checked again from its bytes (functions/ on Cloud Storage's upload event: a client that
 * went around the Firebase adapter's own check): its size, the type its bytes say (`sniffedType`, file-type's
 * answer), which must be one allowed and the very type the file was stored as (`storedType`, which decides how
 * it is served), and an image's pixel size. The problem, or null when it is what it claims to be.
 */
export function checkStoredFile(input: {
  bytes: Uint8Array;
  storedType: string | undefined;
  sniffedType: string | undefined;
}): AttachmentProblem | null {
  const sizeProblem = checkAttachmentSize(input.bytes.length);
  if (sizeProblem) return sizeProblem;
  const { sniffedType } = input;
  if (!isAttachmentType(sniffedType) || attachmentKind(sniffedType) === null) return 'notAllowed';
  if (input.storedType !== sniffedType) return 'notAllowed';
  if (attachmentKind(sniffedType) === 'image' && !imageDimensions(input.bytes, sniffedType as ImageType)) {
    return 'imageUnreadable';
  }
  return null;
}

/**
 * A stored file is the one its upload was recorded as (the Firebase adapter records an upload before its bytes,
 * and a message may carry only what was recorded): the same size, the same type, and an image's same pixel size.
 * functions/ check_attachment_upload removes a file that is not.
 */
export function isAsRecorded(
  recorded: Attachment,
  stored: { bytes: Uint8Array; contentType: string | undefined },
): boolean {
  if (recorded.size !== stored.bytes.length || recorded.contentType !== stored.contentType) return false;
  if (recorded.kind !== 'image') return true;
  const dimensions = imageDimensions(stored.bytes, recorded.contentType as ImageType);
  return dimensions !== null && dimensions.width === recorded.width && dimensions.height === recorded.height;
}
