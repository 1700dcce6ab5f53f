// Checks that lib/ is deployable on its own (npm run build:verify, run by CI and before a deploy): the entry point
// loads and exports every function; every file of lib/ requires only other files of lib/ (core/ is compiled into
// lib/core), Node's built-ins, and packages functions/package.json lists as dependencies — because `firebase
// deploy` uploads this folder and installs its dependencies, nothing beside it. Here, in the npm workspace, those
// packages load from the root's node_modules, where npm hoists them; nothing else may load from outside functions/.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { configurationProblems } from '../src/params';

const EXPECTED = [
  'check_channel_permissions',
  'get_user_active_offers',
  'clear_pending_notifications',
  'get_invitation',
  'accept_invitation',
  'activate_invitation',
  'list_my_invitations',
  'save_push_token',
  'on_user_created',
  'on_message_created',
  'prune_stale_tokens',
  'on_message_deleted',
  'check_attachment_upload',
  'prune_unsent_attachments',
  // the storage quota: a deleted object's room given back
  'on_attachment_deleted',
  // the product's callables
  'get_channel_overview',
  'create_channel',
  'update_channel',
  'list_channel_members',
  'mark_channel_read',
  'create_invitation',
  'list_channel_invitations',
  'issue_offer',
  'list_issued_offers',
  'admin_list_users',
  'admin_set_consultant',
  'admin_list_channels',
];

const root = path.resolve(__dirname, '../../..');
// The 1st-gen auth trigger names its project when it is defined; deploys set this, a bare load does not.
process.env.GCLOUD_PROJECT ??= 'qupm-verify';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const entry = require(path.join(root, 'lib/functions/src/index.js')) as Record<string, unknown>;

// Every function functions.ts defines must be exported by the entry point too: a definition the entry does not
// export is never deployed (mute_channel and unmute_channel were, until this check). Defining reads no deps.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createFunctions } = require(path.join(root, 'lib/functions/src/functions.js')) as {
  createFunctions: (deps: () => never) => Record<string, unknown>;
};
const defined = Object.keys(
  createFunctions(() => {
    throw new Error('verifyBuild defines the functions without running them');
  }),
);
const missing = [...new Set([...EXPECTED, ...defined])].filter((name) => typeof entry[name] !== 'function');

// The configuration the deploy gives the functions (functions/.env, then .env.<project>; the CLI sets
// GCLOUD_PROJECT for predeploy hooks), checked as the functions read it: a notification link FCM would drop
// fails here, not on every push.
const envFiles = ['.env', `.env.${process.env.GCLOUD_PROJECT}`]
  .map((name) => path.join(root, name))
  .filter((file) => existsSync(file))
  .map((file) => readFileSync(file, 'utf8'));
const misconfigured = configurationProblems(envFiles, process.env);

// Outside functions/, only installed packages may load (never ../src or ../core as sources).
const outside = Object.keys(require.cache).filter(
  (file) => !file.startsWith(root + path.sep) && !file.split(path.sep).includes('node_modules'),
);

const lib = path.join(root, 'lib');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);
const packageName = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');

function* jsFiles(dir: string): Generator<string> {
  for (const entryName of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entryName.name);
    if (entryName.isDirectory()) yield* jsFiles(full);
    else if (entryName.name.endsWith('.js')) yield full;
  }
}
const undeclared: string[] = [];
for (const file of jsFiles(lib)) {
  for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)) {
    const where = path.relative(root, file);
    if (specifier.startsWith('.')) {
      if (!path.resolve(path.dirname(file), specifier).startsWith(lib + path.sep)) {
        undeclared.push(`${where} requires ${specifier}, outside lib/`);
      }
    } else if (
      !specifier.startsWith('node:') &&
      !builtins.has(specifier) &&
      !declared.has(packageName(specifier))
    ) {
      undeclared.push(`${where} requires ${specifier}, which functions/package.json does not list`);
    }
  }
}

if (missing.length > 0 || outside.length > 0 || undeclared.length > 0 || misconfigured.length > 0) {
  if (missing.length > 0) console.error(`Missing exports: ${missing.join(', ')}`);
  if (misconfigured.length > 0) console.error(`Configuration:\n  ${misconfigured.join('\n  ')}`);
  if (outside.length > 0) console.error(`Loaded from outside functions/:\n  ${outside.join('\n  ')}`);
  if (undeclared.length > 0) console.error(`Not deployable:\n  ${undeclared.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `functions/lib is deployable: ${defined.length} functions; lib/ requires only itself, built-ins and ` +
    `its ${declared.size} declared dependencies.`,
);
