// A static check of storage.rules, beside scripts/checkFirestoreRules.ts (npm test, and `npm run check:rules`
// before every deploy), with its parser. It fails on:
//   - an allow that holds unconditionally, or any allow outside channels/{channelId}/attachments/{attachmentId}
//     and photos/{uid}/{photoId} (profile pictures: checked apart, checkPhotoAllow);
//   - an allow that does not look the caller up among the channel's owner and members in Firestore;
//   - a read, list, write or update allow (files are read one at a time with get, created once, and deleted);
//   - a create without the size limit, the allowed content types, or the id's shape;
//   - a create that does not hold the bytes to the caller's unsent upload record (its size and type), a get that
//     lets a member read someone else's upload before a message took it, and a delete that lets the consultant
//     delete a client's file in a private consultation (the embedded server allows none of these:
//     server/services/attachments.ts, core/messageEdits.ts).
// And it reads the limits the rules repeat (the size, the types), which __tests__/rules compares with
// core/attachments.ts. A guard against the mistakes that open a bucket, not a proof (the Storage emulator cannot
// run on these machines).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  allows,
  alwaysTrue,
  expand,
  functionBodies,
  matchBlocks,
  stripComments,
} from './checkFirestoreRules';

export const ATTACHMENT_OBJECT_PATH = '/b/{bucket}/o/channels/{channelId}/attachments/{attachmentId}';
const ALLOWED_OPS = new Set(['get', 'create', 'delete']);
const ID_SHAPE = "attachmentId.matches('^[A-Za-z0-9]{20}$')";
export const PHOTO_OBJECT_PATH = '/b/{bucket}/o/photos/{uid}/{photoId}';
const PHOTO_ID_SHAPE = "photoId.matches('^[A-Za-z0-9]{20}$')";

/**
 * A profile picture's allow (core/photos.ts): got by anyone signed in, created and deleted by its person alone; a
 * create within 512 KB, of the image types, under an id of the usual shape.
 */
function checkPhotoAllow(label: string, ops: string[], expanded: string, block: string): string[] {
  const problems: string[] = [];
  if (!/request\.auth\s*!=\s*null/.test(expanded)) problems.push(`${label} lets anyone signed out in`);
  const own = /request\.auth\.uid\s*==\s*uid\b/.test(expanded);
  if ((ops.includes('create') || ops.includes('delete')) && !own) {
    problems.push(`${label} lets someone else change a person's picture`);
  }
  if (ops.includes('create')) {
    if (storageRulesLimits(expanded).maxBytes !== 512 * 1024) problems.push(`${label} is not held to 512 KB`);
    if (!/contentType\s+in\s+\[\s*'image\/webp',\s*'image\/png',\s*'image\/jpeg'\s*\]/.test(expanded)) {
      problems.push(`${label} does not limit the content type to WebP, PNG and JPEG`);
    }
    if (!expanded.includes('photoId.matches(') || !block.includes(PHOTO_ID_SHAPE)) {
      problems.push(`${label} does not check the id's shape`);
    }
  }
  return problems;
}

export function checkStorageRules(source: string): string[] {
  const problems: string[] = [];
  const text = stripComments(source);
  const bodies = functionBodies(text);
  const blocks = matchBlocks(text);
  const found = blocks.flatMap(allows);
  // The allows are read without nested braces, which takes {20} out of the pattern: the block's text has it.
  const attachmentsBlock = blocks.find((block) => block.path === ATTACHMENT_OBJECT_PATH)?.body ?? '';
  if (found.length === 0) problems.push('no allow at all: attachments could not be used');
  for (const allow of found) {
    const label = `allow ${allow.ops.join(', ')} at ${allow.where}`;
    const { text: expanded, called } = expand(allow.condition ?? '', bodies);
    if (alwaysTrue(allow.condition, bodies, called)) problems.push(`${label} holds unconditionally`);
    for (const op of allow.ops) {
      if (!ALLOWED_OPS.has(op)) problems.push(`${label}: '${op}' (files are got, created once and deleted)`);
    }
    if (allow.where === PHOTO_OBJECT_PATH) {
      const block = blocks.find((b) => b.path === PHOTO_OBJECT_PATH)?.body ?? '';
      problems.push(...checkPhotoAllow(label, allow.ops, expanded, block));
      continue;
    }
    if (allow.where !== ATTACHMENT_OBJECT_PATH)
      problems.push(`${label}: only attachments and photos are open`);
    const membership =
      /firestore\.get\(\s*\/databases\/\(default\)\/documents\/channels\/\$\(channelId\)\s*\)/.test(
        expanded,
      ) &&
      /\.ownerId\s*==\s*request\.auth\.uid/.test(expanded) &&
      /request\.auth\.uid\s+in\s+\w+\.members/.test(expanded);
    if (!membership) problems.push(`${label} does not check the channel's owner and members in Firestore`);
    // The upload record of the object (channels/{channelId}/uploads/{attachmentId}), looked up in Firestore.
    const recordLookup =
      /firestore\.(get|exists)\(\s*\/databases\/\(default\)\/documents\/channels\/\$\(channelId\)\/uploads\/\$\(attachmentId\)\s*\)/.test(
        expanded,
      ) || /firestore\.(get|exists)\(\s*uploadPath\(\s*channelId\s*,\s*attachmentId\s*\)\s*\)/.test(expanded);
    if (allow.ops.includes('get') || allow.ops.includes('read')) {
      const ownOrSent =
        recordLookup &&
        /\.uploaderId\s*==\s*request\.auth\.uid/.test(expanded) &&
        /\.messageId\s*!=\s*null/.test(expanded);
      if (!ownOrSent) problems.push(`${label} lets a member read someone else's upload before it is sent`);
    }
    if (allow.ops.includes('delete') && !/kind['"]?[^&|;]*!=\s*'private'/.test(expanded)) {
      problems.push(`${label} lets the consultant delete a client's file in a private consultation`);
    }
    if (allow.ops.includes('create')) {
      const asRecorded =
        recordLookup &&
        /\.uploaderId\s*==\s*request\.auth\.uid/.test(expanded) &&
        /\.messageId\s*==\s*null/.test(expanded) &&
        /\.size\s*==\s*request\.resource\.size/.test(expanded) &&
        /\.contentType\s*==\s*request\.resource\.contentType/.test(expanded);
      if (!asRecorded) problems.push(`${label} does not hold the bytes to the caller's unsent upload record`);
      if (!expanded.includes('attachmentId.matches(') || !attachmentsBlock.includes(ID_SHAPE))
        problems.push(`${label} does not check the id's shape`);
      if (storageRulesLimits(expanded).maxBytes === null) problems.push(`${label} has no size limit`);
      if (!/isImageType\(|isDocumentType\(|contentType\s+in\s+\[/.test(expanded)) {
        problems.push(`${label} does not limit the content type`);
      }
    }
  }
  return problems;
}

/** The limits the rules write: the largest size (`size <= a * b * c`) and the two type lists. */
export function storageRulesLimits(source: string): {
  maxBytes: number | null;
  imageTypes: string[];
  documentTypes: string[];
} {
  const size = /\.size\s*<=\s*([\d\s*]+)/.exec(source)?.[1];
  const maxBytes = size
    ? size
        .split('*')
        .map((factor) => Number(factor.trim()))
        .reduce((a, b) => a * b, 1)
    : null;
  const listIn = (fn: string): string[] => {
    const body = new RegExp(`function\\s+${fn}\\s*\\([^)]*\\)\\s*\\{([^}]*)\\}`).exec(source)?.[1] ?? '';
    return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
  };
  return { maxBytes, imageTypes: listIn('isImageType'), documentTypes: listIn('isDocumentType') };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const root = path.resolve(__dirname, '..');
  const problems = checkStorageRules(readFileSync(path.join(root, 'storage.rules'), 'utf8'));
  for (const problem of problems) console.error(`storage.rules: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(
    'storage.rules: attachments only, members only, got (unsent uploads by their uploader), created once within the limits and as recorded, deleted',
  );
}
