// The deployed entry point (package.json "main"): the functions of functions.ts on the Admin SDK. The SDK is
// set up on the first invocation, not at load, so that `firebase deploy` can load this module to read the
// functions' definitions without credentials.
import { initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { FieldValue, Timestamp, getFirestore } from 'firebase-admin/firestore';
import { getMessaging } from 'firebase-admin/messaging';
import { getStorage } from 'firebase-admin/storage';
import { createAdminAccounts } from './accounts';
import { createFcmSender } from './fcm';
import { createFirestoreRepository } from './firestoreRepository';
import { createFunctions } from './functions';
import { APP_ORIGIN, resolveAppOrigin } from './params';
import { createBucketFiles } from './storageFiles';
import type { Deps } from './repository';

let deps: Deps | null = null;

function productionDeps(): Deps {
  if (deps) return deps;
  const app = initializeApp();
  const repo = createFirestoreRepository({
    db: getFirestore(app),
    fieldValue: FieldValue,
    timestampFromMillis: (ms) => Timestamp.fromMillis(ms),
  });
  const origin = resolveAppOrigin(APP_ORIGIN.value(), process.env.GCLOUD_PROJECT ?? app.options.projectId);
  deps = {
    repo,
    push: createFcmSender(getMessaging(app)),
    files: createBucketFiles(getStorage(app).bucket()),
    accounts: createAdminAccounts(getAuth(app)),
    now: Date.now,
    appOrigin: () => origin,
  };
  return deps;
}

const functions = createFunctions(productionDeps);

export const {
  get_channel_overview,
  create_channel,
  update_channel,
  list_channel_members,
  mark_channel_read,
  create_invitation,
  list_channel_invitations,
  issue_offer,
  list_issued_offers,
  admin_list_users,
  admin_set_consultant,
  admin_list_channels,
  open_private_channel,
  mute_channel,
  unmute_channel,
  check_channel_permissions,
  get_user_active_offers,
  clear_pending_notifications,
  get_invitation,
  accept_invitation,
  activate_invitation,
  list_my_invitations,
  preview_invitation,
  save_push_token,
  export_my_data,
  delete_my_account,
  revoke_sessions,
  record_revocation,
  on_user_created,
  on_message_created,
  on_message_deleted,
  check_attachment_upload,
  prune_unsent_attachments,
  prune_stale_tokens,
  missed_mail,
  mail_unsubscribe,
} = functions;
