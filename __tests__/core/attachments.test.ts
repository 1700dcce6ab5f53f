// core/attachments.ts: the files a message may carry, decided once for both backends and the
// composer: the types (by the bytes' MIME type), the 10 MB limit, the names, and what a file without text says.
import fc from 'fast-check';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_NAME_MAX,
  attachmentKind,
  checkAttachmentName,
  checkAttachmentSize,
  checkStoredFile,
  attachmentQuotaMessage,
  fitsQuota,
  formatFileSize,
  isAsRecorded,
  storedName,
  toAttachment,
} from '@core/attachments';
import { checkMessageText, messageSummary } from '@core/messageText';
import { messagePush } from '@core/push';
import { htmlFile, pdfFile, pngFile } from '../../drivers/sampleFiles';

describe('attachmentKind', () => {
  it.each([
    ['image/png', 'image'],
    ['image/jpeg', 'image'],
    ['image/webp', 'image'],
    ['image/gif', 'image'],
    ['application/pdf', 'document'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'document'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'document'],
    ['application/vnd.oasis.opendocument.text', 'document'],
    ['application/vnd.oasis.opendocument.spreadsheet', 'document'],
  ])('accepts %s as %s', (type, kind) => {
    expect(attachmentKind(type)).toBe(kind);
  });

  it.each([
    'image/svg+xml',
    'text/html',
    'application/xml',
    'application/x-msdownload',
    'application/zip',
    'application/x-cfb',
    'text/plain',
    'toString',
    '__proto__',
  ])('refuses %s', (type) => {
    expect(attachmentKind(type)).toBeNull();
  });

  it('refuses what could not be sniffed', () => {
    expect(attachmentKind(undefined)).toBeNull();
  });
});

describe('checkAttachmentSize', () => {
  it('takes 1 byte to exactly 10 MB', () => {
    expect(ATTACHMENT_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(checkAttachmentSize(1)).toBeNull();
    expect(checkAttachmentSize(ATTACHMENT_MAX_BYTES)).toBeNull();
  });

  it('refuses an empty file and one byte over 10 MB', () => {
    expect(checkAttachmentSize(0)).toBe('empty');
    expect(checkAttachmentSize(ATTACHMENT_MAX_BYTES + 1)).toBe('tooLarge');
    expect(checkAttachmentSize(Number.NaN)).toBe('empty');
  });
});

describe('checkAttachmentName', () => {
  it.each([
    ['../../x'],
    ['..\\..\\x.png'],
    ['folder/photo.png'],
    ['.'],
    ['..'],
    ['   '],
    ['line\nbreak.png'],
    ['nul\u0000.png'],
    ['photo\u202egnp.exe'],
  ])('refuses %j', (name) => {
    expect(checkAttachmentName(name)).toEqual({ ok: false, problem: 'badName' });
  });

  it('refuses what is not a string', () => {
    expect(checkAttachmentName(undefined)).toEqual({ ok: false, problem: 'badName' });
  });

  it('keeps an ordinary name, trimmed, accents and spaces included', () => {
    expect(checkAttachmentName('  Plan für 2026.pdf ')).toEqual({ ok: true, name: 'Plan für 2026.pdf' });
  });

  it('cuts a long name to the limit, keeping its extension', () => {
    const checked = checkAttachmentName(`${'a'.repeat(300)}.docx`);
    expect(checked).toEqual({ ok: true, name: `${'a'.repeat(ATTACHMENT_NAME_MAX - 5)}.docx` });
  });

  it('answers only names without slashes or control characters, within the limit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (raw) => {
        const checked = checkAttachmentName(raw);
        if (!checked.ok) return;
        expect(checked.name.length).toBeLessThanOrEqual(ATTACHMENT_NAME_MAX);
        // eslint-disable-next-line no-control-regex
        expect(checked.name).not.toMatch(/[/\\\u0000-\u001f]/);
        expect(checkAttachmentName(checked.name)).toEqual(checked);
      }),
    );
  });
});

describe('storedName', () => {
  it('keeps a name whose extension says the real type', () => {
    expect(storedName('photo.JPEG', 'image/jpeg')).toBe('photo.JPEG');
    expect(storedName('plan.pdf', 'application/pdf')).toBe('plan.pdf');
  });

  it('adds the real extension to a name that says another type', () => {
    expect(storedName('holiday.png', 'application/pdf')).toBe('holiday.png.pdf');
    expect(storedName('notes', 'application/vnd.oasis.opendocument.text')).toBe('notes.odt');
  });
});

describe('a file without text', () => {
  it('is a message, and its summary says what was sent', () => {
    expect(checkMessageText('  ', { withAttachment: true })).toEqual({ ok: true, text: '' });
    expect(checkMessageText('  ')).toMatchObject({ ok: false, problem: 'empty' });
    expect(messageSummary({ text: '', attachment: { kind: 'image' } })).toBe('Sent a photo');
    expect(messageSummary({ text: '', attachment: { kind: 'document' } })).toBe('Sent a document');
    expect(messageSummary({ text: 'Look', attachment: { kind: 'image' } })).toBe('Look');
  });

  it('gives a push that says "Sent a document"', () => {
    const push = messagePush({
      channelId: 'ChannelStudio0000001',
      senderName: 'Morgan',
      text: '',
      attachment: { kind: 'document' },
      badgeCount: 1,
    });
    expect(push.notification).toEqual({ title: 'Morgan', body: 'Sent a document' });
  });
});

describe('formatFileSize', () => {
  it.each([
    [1, '1 byte'],
    [900, '900 bytes'],
    [2048, '2 KB'],
    [ATTACHMENT_MAX_BYTES, '10.0 MB'],
    [1024 ** 3, '1 GB'],
    [1.5 * 1024 ** 3, '1.5 GB'],
  ])('%d bytes read "%s"', (bytes, words) => {
    expect(formatFileSize(bytes)).toBe(words);
  });
});

describe('the storage quota', () => {
  const quotaBytes = 10 * 1024 * 1024;
  it('lets a file take up exactly what is left, and not a byte more', () => {
    expect(fitsQuota({ quotaBytes, usedBytes: quotaBytes - 100, fileBytes: 100 })).toBe(true);
    expect(fitsQuota({ quotaBytes, usedBytes: quotaBytes - 100, fileBytes: 101 })).toBe(false);
  });

  it('says how much is left, or that nothing is, with the file and the quota', () => {
    expect(
      attachmentQuotaMessage({ quotaBytes, usedBytes: 8 * 1024 * 1024, fileBytes: 3 * 1024 * 1024 }),
    ).toBe(
      'Your files can take up 10.0 MB in all, and you have 2.0 MB left: this file (3.0 MB) does not fit.',
    );
    expect(attachmentQuotaMessage({ quotaBytes, usedBytes: quotaBytes + 5, fileBytes: 900 })).toBe(
      'Your files can take up 10.0 MB in all, and you have no room left: this file (900 bytes) does not fit.',
    );
  });
});

describe('toAttachment', () => {
  const image = {
    id: 'AttachmentImage00001',
    kind: 'image',
    name: 'sketch.png',
    contentType: 'image/png',
    size: 120,
    width: 4,
    height: 3,
  };
  const document = {
    id: 'AttachmentDoc0000001',
    kind: 'document',
    name: 'plan.pdf',
    contentType: 'application/pdf',
    size: 500,
  };

  it('reads a stored image and a stored document', () => {
    expect(toAttachment(image)).toEqual(image);
    expect(toAttachment(document)).toEqual(document);
  });

  it('drops fields it does not know', () => {
    expect(toAttachment({ ...document, url: 'https://evil.test' })).toEqual(document);
  });

  it.each([
    ['a kind that disagrees with the type', { ...image, kind: 'document' }],
    ['a type that is not allowed', { ...document, contentType: 'text/html' }],
    ['a path for a name', { ...document, name: '../../x' }],
    ['an image without its size', { ...image, width: undefined }],
    ['a size over 10 MB', { ...document, size: ATTACHMENT_MAX_BYTES + 1 }],
    ['an id of another shape', { ...document, id: '../x' }],
    ['nothing', null],
  ])('refuses %s', (_label, value) => {
    expect(toAttachment(value)).toBeNull();
  });
});

describe('checkStoredFile (a stored upload checked again)', () => {
  const png = new Uint8Array(pngFile(4, 3));
  it('accepts bytes that are the allowed type they were stored as', () => {
    expect(checkStoredFile({ bytes: png, storedType: 'image/png', sniffedType: 'image/png' })).toBeNull();
    expect(
      checkStoredFile({
        bytes: new Uint8Array(pdfFile()),
        storedType: 'application/pdf',
        sniffedType: 'application/pdf',
      }),
    ).toBeNull();
  });

  it.each([
    ['empty', new Uint8Array(0), 'image/png', 'image/png', 'empty'],
    ['over 10 MB', new Uint8Array(ATTACHMENT_MAX_BYTES + 1), 'image/png', 'image/png', 'tooLarge'],
    [
      'HTML stored as a PNG (file-type knows no type)',
      new Uint8Array(htmlFile()),
      'image/png',
      undefined,
      'notAllowed',
    ],
    ['a type not allowed', png, 'image/svg+xml', 'image/svg+xml', 'notAllowed'],
    ['a PDF stored as a PNG', new Uint8Array(pdfFile()), 'image/png', 'application/pdf', 'notAllowed'],
    ['stored without a type', png, undefined, 'image/png', 'notAllowed'],
    ['an image whose size cannot be read', png.slice(0, 12), 'image/png', 'image/png', 'imageUnreadable'],
  ] as const)('refuses %s', (_what, bytes, storedType, sniffedType, problem) => {
    expect(checkStoredFile({ bytes, storedType, sniffedType })).toBe(problem);
  });
});

describe('isAsRecorded (a stored file beside its upload record)', () => {
  const png = pngFile(4, 3);
  const recorded = {
    id: 'UploadSketch00000001',
    kind: 'image',
    name: 'sketch.png',
    contentType: 'image/png',
    size: png.length,
    width: 4,
    height: 3,
  } as const;
  const pdf = pdfFile();
  const document = {
    id: 'UploadPlan0000000001',
    kind: 'document',
    name: 'plan.pdf',
    contentType: 'application/pdf',
    size: pdf.length,
  } as const;

  it('is true for the very file that was recorded', () => {
    expect(isAsRecorded(recorded, { bytes: png, contentType: 'image/png' })).toBe(true);
    expect(isAsRecorded(document, { bytes: pdf, contentType: 'application/pdf' })).toBe(true);
  });

  it.each([
    ['another size', { ...recorded, size: png.length + 1 }, 'image/png'],
    ['another type', recorded, 'image/webp'],
    ['no type', recorded, undefined],
    ['another pixel size', { ...recorded, width: 40 }, 'image/png'],
  ])('is false for %s', (_label, record, contentType) => {
    expect(isAsRecorded(record, { bytes: png, contentType })).toBe(false);
  });

  it('is false for an image whose pixel size cannot be read', () => {
    expect(isAsRecorded({ ...recorded, size: pdf.length }, { bytes: pdf, contentType: 'image/png' })).toBe(
      false,
    );
  });
});
