// The callable Cloud Functions: spec §7's three, and the invitation calls that rules alone cannot guard
// (ARCHITECTURE.md: single-use, idempotent, bound to the invitee). Answers are checked and converted here.
import type { CallablesPort, InvitationsPort } from '../ports';
import type { CallableName } from '@core/schemas';
import { toActivation, toInvitation, toOffers, toPermissions } from './convert';
import { guarded } from './errors';
import type { FirebaseSdk } from './sdk';

/** Callables the client calls beyond spec §7's, with their payloads; functions/ implements them (issue #7). */
export const INVITATION_CALLABLES = {
  get_invitation: 'get_invitation',
  accept_invitation: 'accept_invitation',
  activate_invitation: 'activate_invitation',
} as const;
export interface InvitationPayload {
  invitationId: string;
}

type Name = CallableName | keyof typeof INVITATION_CALLABLES;

export function createCallables(sdk: FirebaseSdk): {
  callables: CallablesPort;
  invitations: InvitationsPort;
} {
  async function call<T>(name: Name, payload: unknown, read: (data: unknown) => T): Promise<T> {
    return guarded(async () => {
      const { sdk: fn, functions } = await sdk.functions();
      const { data } = await fn.httpsCallable<unknown, unknown>(functions, name)(payload);
      return read(data);
    });
  }
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
      acceptInvitation: (id) => call('accept_invitation', invitation(id), toInvitation),
      activateInvitation: (id) => call('activate_invitation', invitation(id), toActivation),
    },
  };
}
