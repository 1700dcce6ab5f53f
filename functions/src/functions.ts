// Every Cloud Function of QuPM, built over injected dependencies so that tests can wrap them with fakes
// (firebase-functions-test, offline) and index.ts can give them the Admin SDK. Each is a thin shell: the
// handlers in handlers/ decide with core/. A new callable is one schema in core/schemas.ts, one
// handler, and one line in the table below.
import { logger } from 'firebase-functions';
import * as v1 from 'firebase-functions/v1';
import { onCall, onRequest } from 'firebase-functions/v2/https';
import type { CallableFunction, CallableOptions } from 'firebase-functions/v2/https';
import { onDocumentCreated, onDocumentUpdated } from 'firebase-functions/v2/firestore';
import { onObjectDeleted, onObjectFinalized } from 'firebase-functions/v2/storage';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import type { z } from 'zod';
import {
  callablePayloads,
  invitationCallablePayloads,
  leavingCallablePayloads,
  muteCallablePayloads,
  receiptCallablePayloads,
  practiceCallablePayloads,
  productCallablePayloads,
  publicCallablePayloads,
  publicSessionCallablePayloads,
  searchBackfillBody,
  searchBody,
  sessionCallablePayloads,
  tokenCallablePayloads,
} from '../../core/schemas';
import { attachmentsOf, toAttachment } from '../../core/attachments';
import { toMillis } from '../../core/documents';
import type { PracticeCallableName, ProductCallableName } from '../../core/schemas';
import { guarded, guardedPublic, recentSignIn } from './callable';
import type { GuardOptions, Handler } from './callable';
import { recordRevocation, sessionCallables } from './handlers/sessions';
import { specCallables } from './handlers/callables';
import { invitationCallables, previewInvitation } from './handlers/invitations';
import { leavingCallables } from './handlers/leaving';
import { productCallables } from './handlers/product';
import { handleExpireRequests, practiceCallables } from './handlers/practice';
import { muteCallables } from './handlers/mutes';
import { receiptCallables } from './handlers/receipts';
import { handleMessageCreated } from './handlers/messages';
import { backfillSearchIndex, handleMessageIndexed, searchMessages } from './handlers/search';
import {
  handleAttachmentDeleted,
  handleAttachmentUploaded,
  handleMessageChanged,
  handleQuotedMessageDeleted,
  handleMessageWithAttachment,
  handlePruneUnsentAttachments,
} from './handlers/attachments';
import { handleMissedMail, handleUnsubscribe } from './handlers/missedMail';
import { handlePruneStaleTokens, tokenCallables } from './handlers/tokens';
import { handleNameChanged, handlePhotoChanged, handleUserCreated } from './handlers/users';
import { ENFORCE_APP_CHECK, FUNCTIONS_REGION } from './params';
import type { Deps } from './repository';

/** What every callable shares: its region, and the App Check switch (params.ts). */
export const CALLABLE_OPTIONS: CallableOptions = {
  region: FUNCTIONS_REGION,
  enforceAppCheck: ENFORCE_APP_CHECK,
  // Callables answer a person waiting on a screen: small, quick, and bounded in cost.
  memory: '256MiB',
  timeoutSeconds: 30,
  maxInstances: 20,
};

/** spec §9 has no schedule; 03:00 UTC is the quietest hour for most of QuPM's users. */
export const PRUNE_SCHEDULE = 'every day 03:00';
/** Missed-message email: a message is due 10 minutes after it was posted, so every 5 minutes. */
export const MISSED_MAIL_SCHEDULE = 'every 5 minutes';

function callable<S extends z.ZodType, R>(
  deps: () => Deps,
  schema: S,
  handler: Handler<S, R>,
  options: GuardOptions = {},
): CallableFunction<unknown, Promise<R>> {
  return onCall(CALLABLE_OPTIONS, guarded(deps, schema, handler, options));
}

/** The product's callables, one per name of core/schemas.ts productCallablePayloads. */
function productFunctions(deps: () => Deps): {
  [N in ProductCallableName]: CallableFunction<
    unknown,
    Promise<Awaited<ReturnType<(typeof productCallables)[N]>>>
  >;
} {
  const one = <N extends ProductCallableName>(name: N) =>
    callable(deps, productCallablePayloads[name], productCallables[name]);
  return {
    get_channel_overview: one('get_channel_overview'),
    create_channel: one('create_channel'),
    update_channel: one('update_channel'),
    list_channel_members: one('list_channel_members'),
    mark_channel_read: one('mark_channel_read'),
    create_invitation: one('create_invitation'),
    list_channel_invitations: one('list_channel_invitations'),
    issue_offer: one('issue_offer'),
    list_issued_offers: one('list_issued_offers'),
    admin_list_users: one('admin_list_users'),
    admin_set_consultant: one('admin_set_consultant'),
    admin_list_channels: one('admin_list_channels'),
    open_private_channel: one('open_private_channel'),
  };
}

/** The consulting practice's callables, one per name of core/schemas.ts practiceCallablePayloads. */
function practiceFunctions(deps: () => Deps): {
  [N in PracticeCallableName]: CallableFunction<
    unknown,
    Promise<Awaited<ReturnType<(typeof practiceCallables)[N]>>>
  >;
} {
  const names = Object.keys(practiceCallablePayloads) as PracticeCallableName[];
  return Object.fromEntries(
    names.map((name) => [
      name,
      callable(deps, practiceCallablePayloads[name], practiceCallables[name] as Handler<z.ZodType, unknown>),
    ]),
  ) as ReturnType<typeof practiceFunctions>;
}

/** Requests nobody answered are declined within minutes of their time (core/bookings.ts planExpire). */
export const EXPIRE_REQUESTS_SCHEDULE = 'every 5 minutes';

/** A message document's first file, when it holds valid ones (the push names its kind). */
function attachmentOf(data: Record<string, unknown>): { attachment?: { kind: 'image' | 'document' } } {
  const [attachment] = attachmentsOf(data);
  return attachment ? { attachment: { kind: attachment.kind } } : {};
}

/** A message document as the search index reads it (handlers/search.ts). */
function indexedMessage(params: { channelId: string; messageId: string }, data: Record<string, unknown>) {
  return {
    ...params,
    text: typeof data.text === 'string' ? data.text : '',
    createdAt: toMillis(data.createdAt),
    deleted: data.deleted === true,
  };
}

export function createFunctions(deps: () => Deps) {
  return {
    // Message search (handlers/search.ts): the caller's own channels only.
    search_messages: callable(deps, searchBody, searchMessages),
    // An admin's one-off: index the messages from before the triggers kept the index (resumable, idempotent).
    backfill_search_index: callable(deps, searchBackfillBody, backfillSearchIndex),
    // The product's callables (src/backend/firebase/callables.ts PRODUCT_CALLABLES)
    ...productFunctions(deps),
    // The consulting practice (services, bookings, the ledger, housekeeping)
    ...practiceFunctions(deps),
    expire_booking_requests: onSchedule(
      { schedule: EXPIRE_REQUESTS_SCHEDULE, timeZone: 'Etc/UTC', region: FUNCTIONS_REGION, retryCount: 0 },
      async () => {
        const expired = await handleExpireRequests(deps());
        if (expired > 0) logger.info('booking requests expired unanswered', { expired });
      },
    ),
    // spec §7
    check_channel_permissions: callable(
      deps,
      callablePayloads.check_channel_permissions,
      specCallables.check_channel_permissions,
    ),
    get_user_active_offers: callable(
      deps,
      callablePayloads.get_user_active_offers,
      specCallables.get_user_active_offers,
    ),
    clear_pending_notifications: callable(
      deps,
      callablePayloads.clear_pending_notifications,
      specCallables.clear_pending_notifications,
    ),
    // What rules alone cannot guard (src/backend/firebase/callables.ts INVITATION_CALLABLES).
    get_invitation: callable(
      deps,
      invitationCallablePayloads.get_invitation,
      invitationCallables.get_invitation,
    ),
    accept_invitation: callable(
      deps,
      invitationCallablePayloads.accept_invitation,
      invitationCallables.accept_invitation,
    ),
    activate_invitation: callable(
      deps,
      invitationCallablePayloads.activate_invitation,
      invitationCallables.activate_invitation,
    ),
    list_my_invitations: callable(
      deps,
      invitationCallablePayloads.list_my_invitations,
      invitationCallables.list_my_invitations,
    ),
    // The one callable without a session: an invitation's preview for whoever holds its link.
    preview_invitation: onCall(
      CALLABLE_OPTIONS,
      guardedPublic(deps, publicCallablePayloads.preview_invitation, previewInvitation),
    ),
    // The one writer of users/{uid}/channelPrefs (src/backend/firebase/mutes.ts).
    mute_channel: callable(deps, muteCallablePayloads.mute_channel, muteCallables.mute_channel),
    unmute_channel: callable(deps, muteCallablePayloads.unmute_channel, muteCallables.unmute_channel),
    // The one writer of channels/{id}/receipts (src/backend/firebase/receipts.ts).
    mark_channel_delivered: callable(
      deps,
      receiptCallablePayloads.mark_channel_delivered,
      receiptCallables.mark_channel_delivered,
    ),
    set_read_receipts: callable(
      deps,
      receiptCallablePayloads.set_read_receipts,
      receiptCallables.set_read_receipts,
    ),
    // The one writer of token documents (firestore.rules: no client creates one).
    // A device signed out everywhere must not register its push token again with a token still unexpired.
    save_push_token: callable(deps, tokenCallablePayloads.save_push_token, tokenCallables.save_push_token, {
      checkRevoked: true,
    }),
    // Leaving: the caller's own data (asking Auth too: it hands over everything the account
    // holds), and the caller's own account once the password was just proven (the client re-authenticates first;
    // the ID token's auth_time says when).
    export_my_data: callable(deps, leavingCallablePayloads.export_my_data, leavingCallables.export_my_data, {
      checkRevoked: true,
    }),
    delete_my_account: onCall(
      CALLABLE_OPTIONS,
      recentSignIn(
        guarded(deps, leavingCallablePayloads.delete_my_account, leavingCallables.delete_my_account),
        () => deps().now(),
      ),
    ),
    // "Sign out everywhere" (src/backend/firebase/sessions.ts).
    revoke_sessions: callable(
      deps,
      sessionCallablePayloads.revoke_sessions,
      sessionCallables.revoke_sessions,
      {
        checkRevoked: true,
      },
    ),

    // A password reset or change ended the account's sessions in Firebase Auth: recorded for the rules.
    record_revocation: onCall(
      CALLABLE_OPTIONS,
      guardedPublic(deps, publicSessionCallablePayloads.record_revocation, recordRevocation),
    ),

    /**
     * users/{uid} for every new account. A 1st-gen trigger on purpose: 2nd-gen functions have only the
     * blocking auth triggers, which need Identity Platform; this one works on plain Firebase Auth.
     */
    on_user_created: v1
      .region(FUNCTIONS_REGION)
      .auth.user()
      .onCreate(async (user) => {
        const created = await handleUserCreated(deps(), {
          uid: user.uid,
          email: user.email ?? null,
          displayName: user.displayName ?? null,
        });
        if (!created) logger.info('users document already present', { uid: user.uid });
      }),

    on_message_created: onDocumentCreated(
      { document: 'channels/{channelId}/messages/{messageId}', region: FUNCTIONS_REGION, retry: false },
      async (event) => {
        const data = event.data?.data();
        if (!data) return;
        const outcome = await handleMessageCreated(deps(), {
          channelId: event.params.channelId,
          messageId: event.params.messageId,
          senderId: typeof data.senderId === 'string' ? data.senderId : '',
          senderName: typeof data.senderName === 'string' ? data.senderName : '',
          text: typeof data.text === 'string' ? data.text : '',
          ...attachmentOf(data),
        });
        if (outcome.skipped)
          logger.warn('message not fanned out', { ...event.params, reason: outcome.skipped });
        // Only a message the fan-out took is found by search (one from outside the channel is not).
        if (!outcome.skipped) await handleMessageIndexed(deps(), indexedMessage(event.params, data));
        // A file the upload check removed (or that never came) is not left on the message.
        const attachment = toAttachment(data.attachment);
        if (attachment) {
          const dropped = await handleMessageWithAttachment(deps(), {
            ...event.params,
            text: typeof data.text === 'string' ? data.text : '',
            attachmentId: attachment.id,
          });
          if (dropped) logger.warn('took a missing file off a new message', event.params);
        }
      },
    ),

    // A person's new (or removed) picture, into each channel they are in (core/photos.ts).
    on_user_photo_changed: onDocumentUpdated(
      { document: 'users/{uid}', region: FUNCTIONS_REGION, retry: false },
      async (event) => {
        const before = event.data?.before.data();
        const after = event.data?.after.data();
        if (!after || before?.photoURL === after.photoURL) return;
        const changed = await handlePhotoChanged(deps(), {
          uid: event.params.uid,
          before: before?.photoURL,
          after: after.photoURL,
        });
        logger.info('carried a new picture into channels', { uid: event.params.uid, changed });
      },
    ),

    // A person's new name, into each private consultation they are in (core/privateChannels.ts) and each booking.
    on_user_renamed: onDocumentUpdated(
      { document: 'users/{uid}', region: FUNCTIONS_REGION, retry: false },
      async (event) => {
        const after = event.data?.after.data();
        if (!after) return;
        const changed = await handleNameChanged(deps(), {
          uid: event.params.uid,
          before: event.data?.before.data(),
          after,
        });
        if (changed > 0)
          logger.info('carried a new name into private consultations and bookings', {
            uid: event.params.uid,
            changed,
          });
      },
    ),

    // Deleting a message deletes its file (the client deletes it too; this one cannot be skipped).
    on_message_deleted: onDocumentUpdated(
      { document: 'channels/{channelId}/messages/{messageId}', region: FUNCTIONS_REGION, retry: false },
      async (event) => {
        const before = event.data?.before.data();
        const after = event.data?.after.data();
        if (!before || !after) return;
        // An edit is found by its new words only, a deletion by none (the search index follows the text).
        if (before.text !== after.text || before.deleted !== after.deleted) {
          await handleMessageIndexed(deps(), indexedMessage(event.params, after));
        }
        const deleted = await handleMessageChanged(deps(), { ...event.params, before, after });
        if (deleted) logger.info('deleted the file of a deleted message', event.params);
        await handleQuotedMessageDeleted(deps(), { ...event.params, before, after });
      },
    ),

    // The bytes of every upload checked again, as the embedded server checks them.
    check_attachment_upload: onObjectFinalized(
      { region: FUNCTIONS_REGION, memory: '512MiB', timeoutSeconds: 60, retry: false },
      async (event) => {
        const outcome = await handleAttachmentUploaded(deps(), {
          path: event.data.name,
          size: Number(event.data.size),
          contentType: event.data.contentType,
          uploaderId: event.data.metadata?.uploaderId,
        });
        if (outcome.outcome === 'removed') {
          logger.warn('removed an upload whose bytes were refused', { path: event.data.name, ...outcome });
        }
      },
    ),

    // A deleted object's room goes back to its uploader's storage quota (core/attachments.ts).
    on_attachment_deleted: onObjectDeleted(
      { region: FUNCTIONS_REGION, memory: '256MiB', timeoutSeconds: 60, retry: false },
      async (event) => {
        await handleAttachmentDeleted(deps(), {
          path: event.data.name,
          uploaderId: event.data.metadata?.uploaderId,
        });
      },
    ),

    // Uploads no message took, after a day (core/attachments.ts UNSENT_ATTACHMENT_TTL_MS).
    prune_unsent_attachments: onSchedule(
      { schedule: PRUNE_SCHEDULE, timeZone: 'Etc/UTC', region: FUNCTIONS_REGION, retryCount: 1 },
      async () => {
        const pruned = await handlePruneUnsentAttachments(deps());
        logger.info('pruned unsent attachments', { pruned });
      },
    ),

    prune_stale_tokens: onSchedule(
      { schedule: PRUNE_SCHEDULE, timeZone: 'Etc/UTC', region: FUNCTIONS_REGION, retryCount: 1 },
      async () => {
        const pruned = await handlePruneStaleTokens(deps());
        logger.info('pruned stale push tokens', { pruned });
      },
    ),

    // Missed-message email: mail/{id} documents for the Trigger Email extension.
    missed_mail: onSchedule(
      { schedule: MISSED_MAIL_SCHEDULE, timeZone: 'Etc/UTC', region: FUNCTIONS_REGION, retryCount: 0 },
      async () => {
        const written = await handleMissedMail(deps());
        if (written > 0) logger.info('missed-message emails written', { written });
      },
    ),

    // One-click unsubscribe (RFC 8058) at /api/mail/unsubscribe (firebase.json rewrites it here). No session.
    mail_unsubscribe: onRequest(
      { region: FUNCTIONS_REGION, memory: '256MiB', timeoutSeconds: 30, maxInstances: 5 },
      async (request, response) => {
        const multipart = request.is('multipart/form-data') === 'multipart/form-data';
        const answer = await handleUnsubscribe(deps(), {
          method: request.method,
          token: request.query.token,
          body: multipart ? request.rawBody?.toString('utf8') : request.body,
        });
        response
          .status(answer.status)
          .set('Content-Type', 'text/html; charset=utf-8')
          .set('Cache-Control', 'no-store')
          .send(answer.html);
      },
    ),
  };
}
