// `/invite/:invitationId` (issue #6): who invites to which channel and what it grants, and accept. The frame
// (the id checked, signing in on the same route, loading and failures) is src/ui/InvitationFrame.tsx; this
// route says what is particular to accepting.
import { Link } from 'react-router-dom';
import type { Invitation } from '@core/model';
import { activatePath, channelPath } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { acceptRequested, selectAcceptStep } from '@/store/invitationsSlice';
import { selectUid } from '@/store/userSlice';
import { InvitationRoute, InvitationScreen, useViewedInvitation } from '@/ui/InvitationFrame';
import { grantWords } from '@/ui/grantWords';
import { InvitationProblem, InvitationSummary, problemOf } from '@/ui/InvitationViews';

function Acceptance({ id, invitation }: { id: string; invitation: Invitation }) {
  const dispatch = useAppDispatch();
  const accept = useAppSelector(selectAcceptStep);
  const uid = useAppSelector(selectUid);

  const mine = invitation.acceptedBy !== undefined && invitation.acceptedBy === uid;
  if (invitation.status === 'expired') return <InvitationProblem kind="expired" invitationId={id} />;
  if ((invitation.status === 'accepted' || invitation.status === 'activated') && !mine) {
    return <InvitationProblem kind="used" invitationId={id} />;
  }
  if (accept.status === 'failed' && accept.error) {
    return (
      <InvitationProblem kind={problemOf(accept.error)} invitationId={id} detail={accept.error.message} />
    );
  }

  const ownInvitation = invitation.consultantId === uid;
  const grants = invitation.passes > 0 || invitation.credits > 0;
  return (
    <InvitationScreen
      className="screen screen--center invitation"
      titleId="invite-title"
      eyebrow="Invitation"
      title={
        mine
          ? `You joined ${invitation.channelTitle}`
          : `${invitation.consultantName} invites you to ${invitation.channelTitle}`
      }
    >
      <p className="muted">
        {!mine
          ? `Accept to join the channel and message ${invitation.consultantName} there.`
          : invitation.status === 'activated'
            ? 'This invitation is activated: what it grants is yours.'
            : grants
              ? `Activate it to receive ${grantWords(invitation)}.`
              : 'You can message your consultant in the channel now.'}
      </p>
      <InvitationSummary invitation={invitation} />
      <div className="form-actions">
        {!mine && !ownInvitation && (
          <button
            type="button"
            className="button button--primary"
            disabled={accept.status === 'sending'}
            onClick={() => dispatch(acceptRequested({ id }))}
          >
            {accept.status === 'sending' ? 'Accepting…' : 'Accept invitation'}
          </button>
        )}
        {mine && invitation.status === 'accepted' && grants && (
          <Link className="button button--primary" to={activatePath(id)}>
            Activate now
          </Link>
        )}
        {mine && (
          <Link className="button" to={channelPath(invitation.channelId)}>
            Open the channel
          </Link>
        )}
      </div>
      {ownInvitation && (
        <p className="muted" role="note">
          This is your own invitation. Share its link with the person you invite.
        </p>
      )}
    </InvitationScreen>
  );
}

function InvitationPage({ id }: { id: string }) {
  const viewed = useViewedInvitation(id);
  if (viewed.screen) return viewed.screen;
  return <Acceptance id={id} invitation={viewed.invitation} />;
}

export function Component() {
  return (
    <InvitationRoute
      signIn={{
        titleId: 'invite-signin-title',
        eyebrow: 'Invitation',
        title: 'You have been invited to QuPM',
        text: 'Sign in, or create an account, to see the invitation and accept it. You stay right here.',
        formLead: 'Use the email the invitation was sent to, if it names one.',
      }}
    >
      {(id) => <InvitationPage id={id} />}
    </InvitationRoute>
  );
}
