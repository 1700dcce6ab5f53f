// The callable Cloud Functions: spec §7's three, the invitation calls that rules alone cannot guard
// (ARCHITECTURE.md: single-use, idempotent, bound to the invitee), and the product's calls. Answers are
// checked and converted here. The invitations addressed to the person are followed live on the invitations that
// name their email (firestore.rules lets them list exactly those), and read through list_my_invitations, which
// adds the channel's and the consultant's names the person may not read themselves.
import { onIdTokenChanged } from 'firebase/auth';
import type { CallablesPort, InvitationsPort } from '../ports';
import type { CallableName, PracticeCallableName } from '@core/schemas';
import { listOf, toActivation, toInvitation, toInvitationPreview, toOffers, toPermissions } from './convert';
import { guarded } from './errors';
import { listenLazily, reportListenerError } from './live';
import type { FirebaseSdk } from './sdk';

/** Callables the client calls beyond spec §7's, with their payloads; functions/ implements them. */
export const INVITATION_CALLABLES = {
  get_invitation: 'get_invitation',
  accept_invitation: 'accept_invitation',
  activate_invitation: 'activate_invitation',
  list_my_invitations: 'list_my_invitations',
  /** The one callable without a session: an invitation's preview for whoever holds its link. */
  preview_invitation: 'preview_invitation',
} as const;
export interface InvitationPayload {
  invitationId: string;
}

/**
 * Callables behind the product's ports (channels, invitations, offers, admin): each checks auth, validates with
 * core/schemas.ts and decides with core/, exactly as the embedded server's routes do (functions/).
 */
export const PRODUCT_CALLABLES = {
  get_channel_overview: 'get_channel_overview',
  create_channel: 'create_channel',
  update_channel: 'update_channel',
  list_channel_members: 'list_channel_members',
  mark_channel_read: 'mark_channel_read',
  create_invitation: 'create_invitation',
  list_channel_invitations: 'list_channel_invitations',
  issue_offer: 'issue_offer',
  list_issued_offers: 'list_issued_offers',
  admin_list_users: 'admin_list_users',
  admin_set_consultant: 'admin_set_consultant',
  admin_list_channels: 'admin_list_channels',
  open_private_channel: 'open_private_channel',
} as const;

/** Message search over the index the message triggers keep (docs/decisions/firebase.md). */
export const SEARCH_CALLABLES = { search_messages: 'search_messages' } as const;

/** The one writer of a device's token document (firestore.rules let no client create one). */
export const TOKEN_CALLABLES = { save_push_token: 'save_push_token' } as const;

/** The writers of users/{uid}/channelPrefs (mutes). */
export const MUTE_CALLABLES = { mute_channel: 'mute_channel', unmute_channel: 'unmute_channel' } as const;

/** The writers of channels/{id}/receipts and users/{uid}.readReceipts (src/backend/firebase/receipts.ts). */
export const RECEIPT_CALLABLES = {
  mark_channel_delivered: 'mark_channel_delivered',
  set_read_receipts: 'set_read_receipts',
} as const;

/** Leaving: the caller's own data, and deleting the caller's own account. */
export const LEAVING_CALLABLES = {
  export_my_data: 'export_my_data',
  delete_my_account: 'delete_my_account',
} as const;

/**
 * "Sign out everywhere" (src/backend/firebase/sessions.ts), and the report of a revocation
 * Firebase Auth made by itself (a password reset or change), which functions/ record for the rules.
 */
export const SESSION_CALLABLES = {
  revoke_sessions: 'revoke_sessions',
  record_revocation: 'record_revocation',
} as const;

/**
 * Firebase Auth has just ended the sessions of the account of `email` (a password reset or change): functions/
 * record it, so that the rules refuse those sessions now, not when their ID tokens expire. A report that fails
 * changes nothing that was done: the callables that ask Auth find the revocation later and record it then.
 */
export async function reportRevocation(sdk: FirebaseSdk, email: string): Promise<void> {
  try {
    await callFunction(sdk, 'record_revocation', { email }, () => undefined);
  } catch (error) {
    console.warn('The end of the other sessions could not be recorded', error);
  }
}

export type CallableFunctionName =
  | CallableName
  | keyof typeof LEAVING_CALLABLES
  | keyof typeof SESSION_CALLABLES
  | keyof typeof MUTE_CALLABLES
  | keyof typeof RECEIPT_CALLABLES
  | keyof typeof INVITATION_CALLABLES
  | keyof typeof PRODUCT_CALLABLES
  | keyof typeof TOKEN_CALLABLES
  | keyof typeof SEARCH_CALLABLES
  | PracticeCallableName;

/** Calls one callable and reads its answer with `read` (which throws on an answer of the wrong shape). */
export function callFunction<T>(
  sdk: FirebaseSdk,
  name: CallableFunctionName,
  payload: unknown,
  read: (data: unknown) => T,
): Promise<T> {
  return guarded(async () => {
    const { sdk: fn, functions } = await sdk.functions();
    const { data } = await fn.httpsCallable<unknown, unknown>(functions, name)(payload);
    return read(data);
  });
}

export function createCallables(sdk: FirebaseSdk): {
  callables: CallablesPort;
  invitations: InvitationsPort;
} {
  const call = <T>(name: CallableFunctionName, payload: unknown, read: (data: unknown) => T): Promise<T> =>
    callFunction(sdk, name, payload, read);
  const invitation = (invitationId: string): InvitationPayload => ({ invitationId });

  return {
    callables: {
      checkChannelPermissions: ({ channel_id, channel_owner_id }) =>
        call(
          'check_channel_permissions',
          channel_owner_id === undefined ? { channel_id } : { channel_id, channel_owner_id },
          toPermissions,
        ),
      getUserActiveOffers: () => call('get_user_active_offers', null, toOffers),
      clearPendingNotifications: ({ userId }) =>
        call('clear_pending_notifications', { userId }, (data) => ({
          success: (data as { success?: unknown } | null)?.success === true,
        })),
    },
    invitations: {
      getInvitation: (id) => call('get_invitation', invitation(id), toInvitation),
      previewInvitation: (id) => call('preview_invitation', invitation(id), toInvitationPreview),
      acceptInvitation: (id) => call('accept_invitation', invitation(id), toInvitation),
      activateInvitation: (id) => call('activate_invitation', invitation(id), toActivation),
      createInvitation: (input) => call('create_invitation', input, toInvitation),
      listChannelInvitations: (channelId) =>
        call('list_channel_invitations', { channelId }, (data) => listOf(data, 'invitations', toInvitation)),
      listMyInvitations: () =>
        call('list_my_invitations', null, (data) => listOf(data, 'invitations', toInvitation)),
      subscribeMyInvitations(listener) {
        // firestore.rules lets a person list the invitations naming their address once the ID token says the
        // address is confirmed (isInvitee): before, the query would be refused and end, and nothing can be theirs
        // yet. The token changes when the address is confirmed (verifyEmail and getEmailVerification refresh it),
        // and the query starts then; it stops at sign-out.
        let following: { email: string; stop: () => void } | null = null;
        const unfollow = () => {
          following?.stop();
          following = null;
        };
        const stopWatchingToken = onIdTokenChanged(sdk.auth(), (user) => {
          // Firebase Auth keeps emails lowercased, as invitations store them (core/schemas.ts emailSchema).
          const email = user?.emailVerified === true ? user.email : null;
          if (following?.email === email) return;
          unfollow();
          if (!email) return;
          following = {
            email,
            stop: listenLazily(sdk, 'Live invitations', ({ sdk: fs, db }) =>
              // Every snapshot, the first included: the SDK raises one when what the query holds changes, also
              // after it reconnects, and never for metadata alone.
              fs.onSnapshot(
                fs.query(
                  fs.collection(db, 'invitations'),
                  fs.where('inviteeEmail', '==', email),
                  fs.where('status', '==', 'pending'),
                ),
                () => listener(),
                reportListenerError('Live invitations'),
              ),
            ),
          };
        });
        return () => {
          stopWatchingToken();
          unfollow();
        };
      },
    },
  };
}
