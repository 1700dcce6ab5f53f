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
import { createPracticeRepository } from './practiceRepository';
import { createFunctions } from './functions';
import { APP_ORIGIN, resolveAppOrigin } from './params';
import { createBucketFiles } from './storageFiles';
import type { Deps } from './repository';

let deps: Deps | null = null;

function productionDeps(): Deps {
  if (deps) return deps;
  const app = initializeApp();
  const sdk = {
    db: getFirestore(app),
    fieldValue: FieldValue,
    timestampFromMillis: (ms: number) => Timestamp.fromMillis(ms),
  };
  const repo = createFirestoreRepository(sdk);
  const origin = resolveAppOrigin(APP_ORIGIN.value(), process.env.GCLOUD_PROJECT ?? app.options.projectId);
  deps = {
    repo,
    practice: createPracticeRepository(sdk),
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
  search_messages,
  list_services,
  create_service,
  update_service,
  get_availability,
  set_availability,
  list_free_slots,
  request_booking,
  confirm_booking,
  decline_booking,
  propose_booking_time,
  accept_proposed_time,
  decline_proposed_time,
  cancel_booking,
  complete_booking,
  refund_booking,
  get_booking,
  list_my_bookings,
  grant_balance,
  list_my_ledger,
  get_earnings,
  list_my_offers,
  withdraw_offer,
  describe_channel_removal,
  archive_channel,
  unarchive_channel,
  delete_channel,
  remove_member,
  revoke_invitation,
  hand_over_channel,
  expire_booking_requests,
  mute_channel,
  unmute_channel,
  mark_channel_delivered,
  set_read_receipts,
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
  on_user_photo_changed,
  on_user_renamed,
  backfill_search_index,
  check_attachment_upload,
  on_attachment_deleted,
  prune_unsent_attachments,
  prune_stale_tokens,
  missed_mail,
  mail_unsubscribe,
} = functions;
