// firestore.rules cannot import core/: the sizes and patterns it repeats are read off the file here and compared
// with core/limits.ts, so a limit changed in one place and not the other fails npm test.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DELIVERY_CHANNELS, LIMITS } from '@core/limits';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_NAME_MAX,
  ATTACHMENT_QUOTA_BYTES,
  DOCUMENT_TYPES,
  IMAGE_TYPES,
} from '@core/attachments';
import { IMAGE_DIMENSION_MAX } from '@core/imageSize';

const rules = readFileSync(path.join(__dirname, '../../firestore.rules'), 'utf8');

/** The bounds of every `isText(<field>, min, max)` the rules write, by field. */
function textBounds(): Map<string, Array<[number, number]>> {
  const bounds = new Map<string, Array<[number, number]>>();
  const calls = /isText\(\s*data(?:\.get\('(\w+)'[^)]*\)|\.(\w+))\s*,\s*(\d+)\s*,\s*(\d+)\s*\)/g;
  for (const [, getField, dotField, min, max] of rules.matchAll(calls)) {
    const field = getField ?? dotField ?? '';
    bounds.set(field, [...(bounds.get(field) ?? []), [Number(min), Number(max)]]);
  }
  return bounds;
}

// Push token documents are written by the save_push_token callable alone (core/schemas.ts checks them there), so
// the rules hold no token bounds; scripts/checkFirestoreRules.ts fails if a client may create one again.

describe('firestore.rules repeats core/limits.ts', () => {
  const bounds = textBounds();

  it('reads the bounds it checks', () => {
    expect([...bounds.keys()].sort()).toEqual(['displayName', 'nickname', 'senderName', 'text'].sort());
  });

  it.each([
    ['text', 1, LIMITS.messageMax],
    ['nickname', 1, LIMITS.nicknameMax],
    ['displayName', 1, LIMITS.displayNameMax],
    ['senderName', 0, LIMITS.senderNameMax],
  ])('%s: %d to %d characters', (field, min, max) => {
    // Every place that writes it (a message's text: its creation and its edit) has the same bounds.
    const found = bounds.get(field) ?? [];
    expect(found.length).toBeGreaterThan(0);
    for (const bound of found) expect(bound).toEqual([min, max]);
  });

  it('the delivery channels: the same names, at most deliveryChannelsMax', () => {
    expect(rules).toContain(`value.delivery.channels.size() <= ${LIMITS.deliveryChannelsMax}`);
    const listed = /value\.delivery\.channels\.hasOnly\(\[([^\]]*)\]\)/.exec(rules)?.[1] ?? '';
    expect(listed.split(',').map((s) => s.trim().replace(/'/g, ''))).toEqual([...DELIVERY_CHANNELS]);
  });
});

describe('firestore.rules repeats core/attachments.ts (a message’s attachment, issue #13)', () => {
  const body = /function isAttachment\(value\) \{([\s\S]*?)\n {4}\}/.exec(rules)?.[1] ?? '';

  it('reads the function', () => {
    expect(body).toContain('value.size');
  });

  it('the size, the name and the image size limits', () => {
    expect(body).toContain(`value.size <= ${ATTACHMENT_MAX_BYTES}`);
    expect(body).toContain(`value.name.size() <= ${ATTACHMENT_NAME_MAX}`);
    expect(body).toContain(`value.width <= ${IMAGE_DIMENSION_MAX}`);
  });

  it('the same image and document types', () => {
    const lists = [...body.matchAll(/contentType in \[([^\]]*)\]/g)].map((m) =>
      [...(m[1] ?? '').matchAll(/'([^']+)'/g)].map((t) => t[1]),
    );
    expect(lists).toEqual([Object.keys(IMAGE_TYPES), Object.keys(DOCUMENT_TYPES)]);
  });
});

describe('firestore.rules repeats core/attachments.ts: the storage quota', () => {
  const room = /function hasRoomFor\(size\) \{([\s\S]*?)\n {4}\}/.exec(rules)?.[1] ?? '';

  it("is the quota, less what the person's kept files take up", () => {
    const [, factors] = /size <= ([\d\s*]+)-\s*get\(/.exec(room) ?? [];
    const bytes = (factors ?? '0')
      .split('*')
      .map((factor) => Number(factor.trim()))
      .reduce((a, b) => a * b, 1);
    expect(bytes).toBe(ATTACHMENT_QUOTA_BYTES);
    expect(room).toContain("users/$(request.auth.uid)).data.get('attachmentBytes', 0)");
  });

  it('is checked on every new upload record', () => {
    const upload = /function isNewUpload\(attachmentId\) \{([\s\S]*?)\n {4}\}/.exec(rules)?.[1] ?? '';
    expect(upload).toContain('hasRoomFor(data.attachment.size)');
  });
});
