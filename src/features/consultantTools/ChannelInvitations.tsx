// A channel's invitations as its owner sees them, newest first: for whom, what each grants, its status, and the
// link of those still waiting, each with "Revoke" (its link then says it was withdrawn).
import { useEffect } from 'react';
import type { Channel, Invitation } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { channelInvitationsRequested, selectChannelInvitations } from '@/store/invitationsSlice';
import { grantWords } from '@/ui/grantWords';
import { ShareLink } from './ShareLink';
import { StepError } from '@/ui/StepError';
import { invitationRevokeRequested, selectStep, stepKey } from '@/store/housekeepingSlice';

function RevokeButton({ invitation }: { invitation: Invitation }) {
  const dispatch = useAppDispatch();
  const working = useAppSelector(
    (state) => selectStep(state, stepKey('revoke', invitation.id))?.status === 'working',
  );
  return (
    <>
      <button
        type="button"
        className="button button--small button--quiet"
        disabled={working}
        onClick={() =>
          dispatch(
            invitationRevokeRequested({ invitationId: invitation.id, channelId: invitation.channelId }),
          )
        }
      >
        {working ? 'Revoking…' : 'Revoke'}
        <span className="visually-hidden">
          {' '}
          the invitation {invitation.inviteeEmail ? `for ${invitation.inviteeEmail}` : 'by link'}
        </span>
      </button>
      <StepError kind="revoke" target={invitation.id} />
    </>
  );
}

const STATUS_WORDS: Record<Invitation['status'], string> = {
  pending: 'waiting',
  accepted: 'accepted',
  activated: 'activated',
  expired: 'expired',
  revoked: 'withdrawn',
};

export function ChannelInvitations({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const list = useAppSelector((state) => selectChannelInvitations(state, channel.id));
  useEffect(() => {
    dispatch(channelInvitationsRequested({ channelId: channel.id }));
  }, [dispatch, channel.id]);

  return (
    <>
      <h3 className="manage__subtitle">Invitations</h3>
      {!list || list.status === 'loading' ? (
        <p className="muted" role="status">
          Loading invitations…
        </p>
      ) : list.items.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="invitations">
          {list.items.map((invitation) => (
            <li key={invitation.id} className="invitations__item">
              <span>
                {invitation.inviteeEmail ?? 'Anyone with the link'} · {grantWords(invitation)} ·{' '}
                <span className={`status status--${invitation.status}`}>
                  {STATUS_WORDS[invitation.status]}
                </span>
              </span>
              {invitation.status === 'pending' && <ShareLink invitation={invitation} />}
              {(invitation.status === 'pending' || invitation.status === 'expired') && (
                <RevokeButton invitation={invitation} />
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
