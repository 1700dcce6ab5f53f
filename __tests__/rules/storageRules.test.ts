// storage.rules, checked without an emulator: attachments only, the channel's owner and
// members only (looked up in Firestore), never listed or replaced, and a create within core/attachments.ts's
// limits, which the rules repeat. And the check itself, proven to fail on planted bad rules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ATTACHMENT_MAX_BYTES, DOCUMENT_TYPES, IMAGE_TYPES } from '@core/attachments';
import { checkStorageRules, storageRulesLimits } from '../../scripts/checkStorageRules';

const root = path.resolve(__dirname, '../..');
const rules = readFileSync(path.join(root, 'storage.rules'), 'utf8');

function planted(search: string | RegExp, replacement: string): string {
  const changed = rules.replace(search, replacement);
  expect(changed).not.toBe(rules);
  return changed;
}

describe('storage.rules', () => {
  it('passes the check', () => {
    expect(checkStorageRules(rules)).toEqual([]);
  });

  it('repeats core/attachments.ts: 10 MB, and the same image and document types', () => {
    const limits = storageRulesLimits(rules);
    expect(limits.maxBytes).toBe(ATTACHMENT_MAX_BYTES);
    expect(limits.imageTypes).toEqual(Object.keys(IMAGE_TYPES));
    expect(limits.documentTypes).toEqual(Object.keys(DOCUMENT_TYPES));
  });

  it('is deployed with firebase.json, checked before each deploy', () => {
    const firebase = JSON.parse(readFileSync(path.join(root, 'firebase.json'), 'utf8')) as {
      storage?: { rules?: string; predeploy?: string[] };
    };
    expect(firebase.storage?.rules).toBe('storage.rules');
    expect(firebase.storage?.predeploy).toEqual(['npm run -s check:rules']);
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts['check:rules']).toContain('scripts/checkStorageRules.ts');
  });
});

describe('the check fails on', () => {
  it.each([
    [
      'a read open to anyone',
      () =>
        planted(
          'allow get: if isMemberOf(channelId) && isReadable(channelId, attachmentId);',
          'allow get: if true;',
        ),
    ],
    ['a list', () => planted('allow get:', 'allow get, list:')],
    ['an update', () => planted('allow delete:', 'allow update, delete:')],
    [
      'membership not looked up',
      () =>
        planted(
          'allow get: if isMemberOf(channelId) && isReadable(channelId, attachmentId);',
          'allow get: if request.auth != null && isReadable(channelId, attachmentId);',
        ),
    ],
    ['a create without the size limit', () => planted('&& file.size <= 10 * 1024 * 1024', '')],
    [
      'a create without the type limit',
      () =>
        planted(
          /&& \(isImageType\(file\.contentType\)\s*\|\| \(isDocumentType\(file\.contentType\) && file\.contentDisposition\.matches\('\^attachment;\.\*'\)\)\)/,
          '',
        ),
    ],
    [
      "a create that does not check the id's shape",
      () => planted("attachmentId.matches('^[A-Za-z0-9]{20}$')\n        && ", ''),
    ],
    [
      'another path opened',
      () =>
        planted(
          '    match /channels/',
          '    match /public/{file} {\n      allow get: if isMemberOf(file);\n    }\n    match /channels/',
        ),
    ],
    [
      "someone else writing a person's picture",
      () =>
        planted(
          'allow create: if request.auth != null && request.auth.uid == uid',
          'allow create: if request.auth != null',
        ),
    ],
    [
      'a picture over 512 KB',
      () => planted('request.resource.size <= 512 * 1024', 'request.resource.size <= 5 * 1024 * 1024'),
    ],
    [
      'a picture of any type',
      () => planted("request.resource.contentType in ['image/webp', 'image/png', 'image/jpeg']", 'true'),
    ],
    [
      'pictures read signed out',
      () => planted('allow get: if request.auth != null;', 'allow get: if uid != null;'),
    ],
  ])('%s', (_label, make) => {
    expect(checkStorageRules(make())).not.toEqual([]);
  });
});

// The three ways storage.rules let through what the embedded server refuses (as they stood before upload records):
// each planted back, the check names it.
describe('the check names', () => {
  it.each([
    [
      "a member reading someone else's upload before a message took it",
      () =>
        planted(
          'allow get: if isMemberOf(channelId) && isReadable(channelId, attachmentId);',
          'allow get: if isMemberOf(channelId);',
        ),
      "lets a member read someone else's upload before it is sent",
    ],
    [
      'the consultant deleting a client’s file in a private consultation',
      () =>
        planted(
          'allow delete: if isMemberOf(channelId) && mayDelete(channelId);',
          `allow delete: if isMemberOf(channelId)
        && (resource.metadata.uploaderId == request.auth.uid
          || channelOf(channelId).ownerId == request.auth.uid);`,
        ),
      "lets the consultant delete a client's file in a private consultation",
    ],
    [
      'bytes not held to their upload record (another size or type than the message will say)',
      () => planted(/\n\s*&& isRecordedUpload\(channelId, attachmentId\);/, ';'),
      "does not hold the bytes to the caller's unsent upload record",
    ],
    [
      'a record that is not the caller’s, or already sent',
      () =>
        planted(
          'upload.uploaderId == request.auth.uid\n        && upload.messageId == null\n        && ',
          '',
        ),
      "does not hold the bytes to the caller's unsent upload record",
    ],
  ])('%s', (_label, make, problem) => {
    expect(checkStorageRules(make())).toEqual([expect.stringContaining(problem)]);
  });
});
