// A static check of storage.rules, beside scripts/checkFirestoreRules.ts (npm test, and `npm run check:rules`
// before every deploy), with its parser. It fails on:
//   - an allow that holds unconditionally, or any allow outside channels/{channelId}/attachments/{attachmentId};
//   - an allow that does not look the caller up among the channel's owner and members in Firestore;
//   - a read, list, write or update allow (files are read one at a time with get, created once, and deleted);
//   - a create without the size limit, the uploader's quota, the allowed content types, or the id's shape.
// And it reads the limits the rules repeat (the size, the types), which __tests__/rules compares with
// core/attachments.ts. A guard against the mistakes that open a bucket, not a proof.
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
    if (allow.where !== ATTACHMENT_OBJECT_PATH) problems.push(`${label}: only attachments are open`);
    if (alwaysTrue(allow.condition, bodies, called)) problems.push(`${label} holds unconditionally`);
    for (const op of allow.ops) {
      if (!ALLOWED_OPS.has(op)) problems.push(`${label}: '${op}' (files are got, created once and deleted)`);
    }
    const membership =
      /firestore\.get\(\s*\/databases\/\(default\)\/documents\/channels\/\$\(channelId\)\s*\)/.test(
        expanded,
      ) &&
      /\.ownerId\s*==\s*request\.auth\.uid/.test(expanded) &&
      /request\.auth\.uid\s+in\s+\w+\.members/.test(expanded);
    if (!membership) problems.push(`${label} does not check the channel's owner and members in Firestore`);
    if (allow.ops.includes('create')) {
      if (!expanded.includes('attachmentId.matches(') || !attachmentsBlock.includes(ID_SHAPE))
        problems.push(`${label} does not check the id's shape`);
      if (storageRulesLimits(expanded).maxBytes === null) problems.push(`${label} has no size limit`);
      if (!/hasRoomFor\(|attachmentBytes/.test(expanded)) problems.push(`${label} does not check the quota`);
      if (!/isImageType\(|isDocumentType\(|contentType\s+in\s+\[/.test(expanded)) {
        problems.push(`${label} does not limit the content type`);
      }
    }
  }
  return problems;
}

const product = (factors: string | undefined): number | null =>
  factors
    ? factors
        .split('*')
        .map((factor) => Number(factor.trim()))
        .reduce((a, b) => a * b, 1)
    : null;

/**
 * The limits the rules write: the largest size (`size <= a * b * c`), the storage quota (`size <= a * b * c -
 * … attachmentBytes …` in hasRoomFor) and the two type lists.
 */
export function storageRulesLimits(source: string): {
  maxBytes: number | null;
  quotaBytes: number | null;
  imageTypes: string[];
  documentTypes: string[];
} {
  const maxBytes = product(/\.size\s*<=\s*([\d\s*]+)/.exec(source)?.[1]);
  const room = /function\s+hasRoomFor\s*\(\s*(\w+)\s*\)\s*\{([^}]*)\}/.exec(source);
  const quota = room
    ? new RegExp(`${room[1] ?? ''}\\s*<=\\s*([\\d\\s*]+)-[\\s\\S]*attachmentBytes`).exec(room[2] ?? '')
    : null;
  const quotaBytes = product(quota?.[1]);
  const listIn = (fn: string): string[] => {
    const body = new RegExp(`function\\s+${fn}\\s*\\([^)]*\\)\\s*\\{([^}]*)\\}`).exec(source)?.[1] ?? '';
    return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
  };
  return {
    maxBytes,
    quotaBytes,
    imageTypes: listIn('isImageType'),
    documentTypes: listIn('isDocumentType'),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const root = path.resolve(__dirname, '..');
  const problems = checkStorageRules(readFileSync(path.join(root, 'storage.rules'), 'utf8'));
  for (const problem of problems) console.error(`storage.rules: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log('storage.rules: attachments only, members only, got, created once within the limits, deleted');
}
