// A static check of firestore.rules that needs no emulator (npm test, and `npm run check:rules` before every
// Firestore deploy). It fails on:
//   - an allow that holds unconditionally: `allow read;`, `allow ...: if true`, `if x || true`, or a condition
//     that calls a function whose body is `return true`;
//   - a client write (create, update, write) whose condition, with every function it calls inlined, has no key
//     allow-list (`hasOnly([...])`), or whose allow-lists name a role field;
//   - a match block with nothing in it: Firestore refuses to compile the whole file ("The 'match' body must
//     contain at least one declaration"), so a deploy ships no rules (a collection without client access has no
//     match block at all: SERVER_ONLY_COLLECTIONS);
//   - a collection clients read or write (FIRESTORE_COLLECTIONS) without its own match block;
//   - a create-only collection (CREATE_ONLY: messages, whose client-chosen id is a send's idempotency key) that
//     a client may delete, or update other than through `changedKeys().hasOnly([...])` lists that leave its
//     identity alone (IDENTITY_FIELDS: a repeated send rewrites them, so it stays denied; an edit and
//     deletion change only the text and their stamps), or whose create does not check the id's shape;
//   - a collection only functions create (CREATED_BY_FUNCTIONS: token documents, one per device, which the
//     save_push_token callable keeps) that a client may create;
//   - a list (or read, which includes list) that does not depend on the stored documents: every way the condition
//     can hold must test `resource.data` or stay inside one parent document (a wildcard of the path above the
//     listed collection). Rules cannot tie `request.query.limit` or the query's filters to what is returned, so a
//     list that holds for anyone signed in lets them page through the whole collection.
// It is a guard against the mistakes that open a database, not a proof: the emulator suite tests behaviour.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Fields only the backend writes (ARCHITECTURE.md "Data": role and balance fields, the admin claim, and the storage
 * count the quota rests on).
 */
export const ROLE_FIELDS = [
  'isOwner',
  'domainId',
  'credits',
  'passCount',
  'effectiveConId',
  'isAdmin',
  // Whether the person shares read receipts (functions/src/receiptsRepository.ts): the rules trust it.
  'readReceipts',
  // Whether the ledger keeps the balance already (functions/src/practiceRepository.ts): written with it.
  'ledgerOpened',
  // What a person's files take up (functions/src/uploadsRepository.ts), which storage.rules trust.
  'attachmentBytes',
] as const;

const WRITE_OPS = new Set(['write', 'create', 'update']);
const LIST_OPS = new Set(['read', 'list']);

/**
 * Collections whose documents a client creates under an id it chose and never changes: a repeat of the id must be
 * an update, and be denied, for the write to happen once (ARCHITECTURE.md "Live data").
 */
export const CREATE_ONLY = ['channels/{id}/messages'] as const;

/** What an update of a create-only document may never change: who sent it and when (a repeat rewrites them). */
export const IDENTITY_FIELDS = ['senderId', 'senderName', 'createdAt'] as const;

/**
 * Collections whose documents only functions/ create: a device's push token document is saved by the
 * save_push_token callable, which keeps one per (user, device) in a transaction. A client creating
 * one would make a second document for its device. A person's mutes (users/{uid}/channelPrefs) are
 * written by mute_channel and unmute_channel, which check the duration and that the caller is in the channel.
 */
export const CREATED_BY_FUNCTIONS = ['users/{uid}/FCMTokens', 'users/{uid}/channelPrefs'] as const;

/** core/ids.ts DOCUMENT_ID_PATTERN, as the rules write it. */
const ID_SHAPE = "'^[A-Za-z0-9]{20}$'";

export interface MatchBlock {
  /** The full path from the documents root, wildcards kept as written: /users/{uid}/FCMTokens/{tokenId}. */
  path: string;
  body: string;
}

export interface Allow {
  where: string;
  ops: string[];
  condition: string | null;
}

/** The rules without comments and string contents that could hold braces (strings keep their quotes). */
export function stripComments(source: string): string {
  return source.replace(/\/\/[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

/** The index of the brace closing the one at `open`. */
export function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error('firestore.rules: unbalanced braces');
}

/** The text of `body` outside any nested block (so a block's own statements only). */
function ownText(body: string): string {
  let out = '';
  let depth = 0;
  for (const char of body) {
    if (char === '{') depth += 1;
    if (depth === 0) out += char;
    if (char === '}') depth -= 1;
  }
  return out;
}

export function matchBlocks(text: string, prefix = ''): MatchBlock[] {
  const blocks: MatchBlock[] = [];
  const pattern = /match\s+(\/(?:[^\s{]|\{[^}]*\})*)\s*\{/g;
  let found: RegExpExecArray | null;
  while ((found = pattern.exec(text)) !== null) {
    const open = found.index + found[0].length - 1;
    const close = closingBrace(text, open);
    const body = text.slice(open + 1, close);
    const full = prefix + (found[1] ?? '');
    blocks.push({ path: full, body }, ...matchBlocks(body, full));
    pattern.lastIndex = close + 1;
  }
  return blocks;
}

export function functionBodies(text: string): Map<string, string> {
  return new Map([...functionDefinitions(text)].map(([name, { body }]) => [name, body]));
}

interface FunctionDefinition {
  params: string[];
  body: string;
}

function functionDefinitions(text: string): Map<string, FunctionDefinition> {
  const definitions = new Map<string, FunctionDefinition>();
  const pattern = /function\s+([A-Za-z_]\w*)\s*\(([^)]*)\)\s*\{/g;
  let found: RegExpExecArray | null;
  while ((found = pattern.exec(text)) !== null) {
    const open = found.index + found[0].length - 1;
    const close = closingBrace(text, open);
    const params = (found[2] ?? '')
      .split(',')
      .map((param) => param.trim())
      .filter((param) => param !== '');
    definitions.set(found[1] ?? '', { params, body: text.slice(open + 1, close) });
    pattern.lastIndex = close + 1;
  }
  return definitions;
}

/** `text` split at `separator` where it is outside any parentheses or brackets. */
function splitTopLevel(text: string, separator: '||' | '&&' | ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

/** `(a || b)` → `a || b`, when the outer parentheses enclose the whole text. */
function unwrap(text: string): string {
  let inner = text.trim();
  while (inner.startsWith('(') && inner.endsWith(')')) {
    let depth = 0;
    let enclosesAll = true;
    for (let i = 0; i < inner.length - 1; i += 1) {
      if (inner[i] === '(') depth += 1;
      else if (inner[i] === ')') depth -= 1;
      if (depth === 0) {
        enclosesAll = false;
        break;
      }
    }
    if (!enclosesAll) break;
    inner = inner.slice(1, -1).trim();
  }
  return inner;
}

/** A function's body as one expression: its `let` bindings substituted, `return` and `;` dropped. */
function bodyExpression(body: string): string {
  let expression = body.trim();
  const lets = [...expression.matchAll(/let\s+(\w+)\s*=\s*([^;]*);/g)];
  expression = expression.replace(/let\s+\w+\s*=\s*[^;]*;/g, '').trim();
  expression = expression
    .replace(/^return\b/, '')
    .replace(/;\s*$/, '')
    .trim();
  for (const binding of lets.reverse()) {
    expression = substitute(expression, binding[1] ?? '', `(${binding[2] ?? ''})`);
  }
  return expression;
}

const substitute = (text: string, name: string, value: string): string =>
  text.replace(new RegExp(`(?<![\\w.$])${name}\\b`, 'g'), value);

/** The stored document itself (`resource.data`, `resource.id`, `resource['__name__']`), not `request.resource`. */
const STORED_DOCUMENT = /(?<!request\.)\bresource\s*(?:\.|\[)/;

/**
 * Whether every way `condition` can hold depends on the stored documents: each `||` branch has an `&&` part that
 * tests `resource` or names one of `scopes` (the path's wildcards above the listed collection), function calls
 * followed into their bodies with the arguments put in for the parameters.
 */
function dependsOnDocument(
  condition: string,
  definitions: Map<string, FunctionDefinition>,
  scopes: string[],
  depth = 0,
): boolean {
  if (depth > 20) return false;
  const branches = splitTopLevel(unwrap(condition), '||');
  return branches.every((branch) => {
    const parts = splitTopLevel(unwrap(branch), '&&');
    if (parts.length > 1)
      return parts.some((part) => dependsOnDocument(part, definitions, scopes, depth + 1));
    const part = unwrap(parts[0] ?? '');
    // Inside one parent document (its own stored document decides, or its owner): not the whole collection.
    // request.auth.uid is the caller, whatever the path's wildcards are named; and the wildcard itself counts, not
    // a field of the same name.
    const caller = part.replace(/request\.auth\.uid/g, '');
    if (scopes.some((scope) => new RegExp(`(?<![\\w.$])${scope}\\b`).test(caller))) return true;
    if (splitTopLevel(part, '||').length > 1) return dependsOnDocument(part, definitions, scopes, depth + 1);
    const call = /^([A-Za-z_]\w*)\s*\(([\s\S]*)\)$/.exec(part);
    const definition = call ? definitions.get(call[1] ?? '') : undefined;
    if (call && definition) {
      const args = (call[2] ?? '').trim() === '' ? [] : splitTopLevel(call[2] ?? '', ',');
      let body = bodyExpression(definition.body);
      definition.params.forEach((param, index) => {
        body = substitute(body, param, `(${args[index] ?? 'null'})`);
      });
      return dependsOnDocument(body, definitions, scopes, depth + 1);
    }
    return STORED_DOCUMENT.test(part);
  });
}

/** The wildcards of a match path above its last segment: `uid` for /users/{uid}/FCMTokens/{tokenId}. */
function parentWildcards(matchPath: string): string[] {
  const names = [...matchPath.matchAll(/\{([^}=]+)(?:=\*\*)?\}/g)].map((found) => found[1] ?? '');
  return names.slice(0, -1).filter((name) => name !== 'database');
}

export function allows(block: MatchBlock): Allow[] {
  const list: Allow[] = [];
  // Functions declared inside a match block are not its rules.
  const own = ownText(block.body).replace(/function\s+[A-Za-z_]\w*\s*\([^)]*\)\s*/g, '');
  const pattern = /allow\s+([a-z,\s]+?)\s*(?::\s*if\b([^;]*))?;/g;
  let found: RegExpExecArray | null;
  while ((found = pattern.exec(own)) !== null) {
    list.push({
      where: block.path,
      ops: (found[1] ?? '').split(',').map((op) => op.trim()),
      condition: found[2] === undefined ? null : found[2].trim(),
    });
  }
  return list;
}

/** The condition with the bodies of every function it calls (transitively) appended. */
export function expand(condition: string, bodies: Map<string, string>): { text: string; called: string[] } {
  const called: string[] = [];
  const queue = [condition];
  let text = condition;
  while (queue.length > 0) {
    const next = queue.pop() ?? '';
    for (const call of next.matchAll(/([A-Za-z_]\w*)\s*\(/g)) {
      const name = call[1] ?? '';
      const body = bodies.get(name);
      if (body !== undefined && !called.includes(name)) {
        called.push(name);
        text += `\n${body}`;
        queue.push(body);
      }
    }
  }
  return { text, called };
}

export function alwaysTrue(condition: string | null, bodies: Map<string, string>, called: string[]): boolean {
  if (condition === null) return true;
  const bare = condition.replace(/\s+/g, '');
  if (/^\(*true\)*$/.test(bare)) return true;
  if (/(^|\|\|)\(*true\)*(\|\||$)/.test(bare)) return true;
  return called.some((name) => /^return\(*true\)*;?$/.test((bodies.get(name) ?? '').replace(/\s+/g, '')));
}

/** Every string literal inside hasOnly([...]) / hasAll([...]) / hasAny([...]) lists, or bound to a `let` list. */
function allowListedNames(text: string): string[] {
  const names: string[] = [];
  const lists = [
    ...text.matchAll(/has(?:Only|All|Any)\s*\(\s*\[([^\]]*)\]/g),
    ...text.matchAll(/let\s+\w+\s*=\s*\[([^\]]*)\]/g),
  ];
  for (const list of lists) {
    for (const literal of (list[1] ?? '').matchAll(/['"]([^'"]*)['"]/g)) names.push(literal[1] ?? '');
  }
  return names;
}

const normalise = (rulesPath: string): string =>
  rulesPath.replace(/\{[^}=]+=\*\*\}/g, '**').replace(/\{[^}]+\}/g, '{*}');

/** /users/{*}/FCMTokens/{*} for 'users/{uid}/FCMTokens': the documents of that collection. */
function documentPattern(collection: string): string {
  return normalise(`/${collection}/{doc}`);
}

export function checkFirestoreRules(source: string, collections: readonly string[]): string[] {
  const problems: string[] = [];
  const text = stripComments(source);
  const bodies = functionBodies(text);
  const definitions = functionDefinitions(text);
  const service = matchBlocks(text).find((block) => /^\/databases\/\{[^}]+\}\/documents$/.test(block.path));
  if (!service) return ['firestore.rules has no match /databases/{database}/documents block'];
  const blocks = matchBlocks(service.body);

  for (const block of [service, ...blocks]) {
    if (block.body.trim() === '') {
      problems.push(
        `match ${block.path || '/'} is empty: the rules do not compile (a match body needs at least one declaration)`,
      );
    }
  }

  for (const block of [service, ...blocks]) {
    for (const allow of allows(block)) {
      const label = `allow ${allow.ops.join(', ')} at ${block.path || '/'}`;
      const { text: expanded, called } = expand(allow.condition ?? '', bodies);
      if (alwaysTrue(allow.condition, bodies, called)) problems.push(`${label} holds unconditionally`);
      if (
        allow.ops.some((op) => LIST_OPS.has(op)) &&
        !dependsOnDocument(allow.condition ?? 'true', definitions, parentWildcards(block.path))
      ) {
        problems.push(`${label} lets a client list documents without depending on them (resource.data)`);
      }
      if (!allow.ops.some((op) => WRITE_OPS.has(op))) continue;
      if (!/hasOnly\s*\(/.test(expanded)) {
        problems.push(`${label} lets a client write without a key allow-list (hasOnly)`);
      }
      const roles = allowListedNames(expanded).filter((name) =>
        (ROLE_FIELDS as readonly string[]).includes(name),
      );
      for (const role of new Set(roles)) problems.push(`${label} lets a client write the role field ${role}`);
    }
  }

  for (const collection of CREATE_ONLY) {
    const block = blocks.find((candidate) => normalise(candidate.path) === documentPattern(collection));
    const id = block ? /\{([^}=]+)\}$/.exec(block.path)?.[1] : undefined;
    if (!block || !id) continue;
    for (const allow of allows(block)) {
      const label = `allow ${allow.ops.join(', ')} at ${block.path}`;
      if (allow.ops.some((op) => op === 'delete' || op === 'write')) {
        problems.push(`${label}: ${collection} is create-only (a repeated client id must be denied)`);
      }
      if (!allow.ops.includes('update')) continue;
      const { text: expanded } = expand(allow.condition ?? '', bodies);
      const changeLists = [...expanded.matchAll(/changedKeys\(\)\.hasOnly\s*\(\s*\[([^\]]*)\]/g)];
      const named = changeLists.flatMap((list) =>
        [...(list[1] ?? '').matchAll(/['"]([^'"]*)['"]/g)].map((literal) => literal[1] ?? ''),
      );
      const identity = named.filter((name) => (IDENTITY_FIELDS as readonly string[]).includes(name));
      if (changeLists.length === 0 || identity.length > 0) {
        problems.push(
          `${label}: ${collection} is create-only: an update may change only listed keys (changedKeys().hasOnly), never ${IDENTITY_FIELDS.join(', ')} (a repeated client id must be denied)`,
        );
      }
    }
    // The create's own text, braces of the pattern kept (ownText drops what is inside them).
    const creates = block.body
      .split(';')
      .filter((statement) => /allow\s+[a-z,\s]*\bcreate\b/.test(statement));
    for (const statement of creates) {
      if (!statement.replace(/\s+/g, '').includes(`${id}.matches(${ID_SHAPE})`)) {
        problems.push(
          `allow create at ${block.path} does not check the client-chosen id's shape (${id}.matches(${ID_SHAPE}))`,
        );
      }
    }
  }

  for (const collection of CREATED_BY_FUNCTIONS) {
    const block = blocks.find((candidate) => normalise(candidate.path) === documentPattern(collection));
    if (!block) continue;
    for (const allow of allows(block)) {
      if (allow.ops.some((op) => op === 'create' || op === 'write')) {
        problems.push(
          `allow ${allow.ops.join(', ')} at ${block.path}: ${collection} is created by functions only (save_push_token)`,
        );
      }
    }
  }

  const covered = new Set(blocks.map((block) => normalise(block.path)));
  for (const collection of collections) {
    const wanted = documentPattern(collection);
    if (!covered.has(wanted) && !covered.has(normalise(`/${collection}/{doc=**}`))) {
      problems.push(`${collection} has no match block (${wanted})`);
    }
  }
  return problems;
}

/**
 * The collections clients read or write on Firestore, each of which the rules must cover with its own match
 * block (the Data table of the team's ARCHITECTURE.md, as this code implements it). A test reads the Firestore
 * code of src/backend/firebase and functions/src and fails when it names a collection missing here or in
 * SERVER_ONLY_COLLECTIONS, or when one listed here is no longer used.
 */
export const FIRESTORE_COLLECTIONS = [
  'users',
  'users/{uid}/FCMTokens',
  'channels',
  'channels/{id}/messages',
  'invitations',
  'offers',
  'users/{uid}/channelPrefs',
  'channelHandles',
  // The consulting practice.
  'services',
  'availability',
  'bookings',
  'users/{uid}/ledger',
  // A file on its way into a message (its record, before the bytes) and when an account's sessions were revoked.
  'channels/{id}/uploads',
  'revocations',
  // Read receipts (functions/ write them) and typing signals (core/receipts.ts).
  'channels/{id}/receipts',
  'channels/{id}/typing',
] as const;

/** Bookkeeping only functions touch: no match block, so every client access is denied. */
export const SERVER_ONLY_COLLECTIONS = [
  // Pending counts behind badge_count: each push carries its count, clear_pending_notifications empties them.
  'users/{uid}/pending',
  'channels/{id}/members',
  'users/{uid}/channelReads',
  // The storage quota: one record per kept upload, whose sizes users/{uid}.attachmentBytes sums.
  'users/{uid}/uploads',
  // Missed-message email: its state, the Trigger Email extension's queue, the signing secret.
  'missedMail',
  'mail',
  'config',
  // The consulting practice: a consultant's calendar cells and the operation ids' records.
  'slots',
  'operations',
  // Message search: each message's word prefixes, read by the search_messages callable only.
  'messageSearch',
] as const;

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const root = path.resolve(__dirname, '..');
  const problems = checkFirestoreRules(
    readFileSync(path.join(root, 'firestore.rules'), 'utf8'),
    FIRESTORE_COLLECTIONS,
  );
  for (const problem of problems) console.error(`firestore.rules: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(
    'firestore.rules: no unconditional allow, no client-writable role field, no list independent of the documents, every collection covered, messages create-only',
  );
}
