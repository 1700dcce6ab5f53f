// Checks that lib/ is deployable on its own (npm run build:verify, run by CI): the entry point loads, exports
// every function, and every module it loads lives inside functions/ — core/ compiled into lib/core, packages
// from functions/node_modules — because `firebase deploy` uploads this folder and nothing beside it.
import path from 'node:path';

const EXPECTED = [
  'check_channel_permissions',
  'get_user_active_offers',
  'clear_pending_notifications',
  'get_invitation',
  'accept_invitation',
  'activate_invitation',
  'on_user_created',
  'on_message_created',
  'prune_stale_tokens',
  // issue #6
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

const missing = EXPECTED.filter((name) => typeof entry[name] !== 'function');
const outside = Object.keys(require.cache).filter((file) => !file.startsWith(root + path.sep));
if (missing.length > 0 || outside.length > 0) {
  if (missing.length > 0) console.error(`Missing exports: ${missing.join(', ')}`);
  if (outside.length > 0) console.error(`Loaded from outside functions/:\n  ${outside.join('\n  ')}`);
  process.exit(1);
}
console.log(`functions/lib is deployable: ${EXPECTED.length} functions, every module inside functions/.`);
