// `/invite/:invitationId` (issue #6): who invites to which channel and what it grants, and accept. A signed-out
// visitor signs in or up right here and stays on the same invitation. The id is checked before anything uses it
// (a malformed one never reaches a backend); each failure gets its own screen.
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { parseDocumentId } from '@core/ids';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  acceptRequested,
  invitationRequested,
  selectAcceptStep,
  selectViewedInvitation,
} from '@/store/invitationsSlice';
import { selectAuthStatus, selectUid } from '@/store/userSlice';
import { AuthForm } from '@/ui/AuthForm';
import { InvalidInvitation } from '@/ui/InvalidInvitation';
import { grantWords } from '@/ui/grantWords';
import { InvitationProblem, InvitationSummary, problemOf } from '@/ui/InvitationViews';
import { LoadingScreen } from '@/ui/LoadingScreen';

function Invitation({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const viewed = useAppSelector(selectViewedInvitation);
  const accept = useAppSelector(selectAcceptStep);
  const uid = useAppSelector(selectUid);

  useEffect(() => {
    dispatch(invitationRequested({ id }));
  }, [dispatch, id]);

  if (viewed.id !== id || viewed.status === 'loading' || viewed.status === 'idle')
    return <LoadingScreen inline />;
  if (viewed.status === 'failed' || !viewed.invitation) {
    const failure = viewed.error ?? { status: 'INTERNAL', message: '' };
    return (
      <InvitationProblem
        kind={problemOf(failure)}
        invitationId={id}
        onRetry={() => dispatch(invitationRequested({ id }))}
      />
    );
  }
  const invitation = viewed.invitation;
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
    <section className="screen screen--center invitation" aria-labelledby="invite-title">
      <p className="eyebrow">Invitation</p>
      {mine ? (
        <>
          <h1 id="invite-title">You joined {invitation.channelTitle}</h1>
          <p className="muted">
            {invitation.status === 'activated'
              ? 'This invitation is activated: what it grants is yours.'
              : grants
                ? `Activate it to receive ${grantWords(invitation)}.`
                : 'You can message your consultant in the channel now.'}
          </p>
        </>
      ) : (
        <>
          <h1 id="invite-title">
            {invitation.consultantName} invites you to {invitation.channelTitle}
          </h1>
          <p className="muted">Accept to join the channel and message {invitation.consultantName} there.</p>
        </>
      )}
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
          <Link className="button button--primary" to={`/activate/${id}`}>
            Activate now
          </Link>
        )}
        {mine && (
          <Link className="button" to={`/?channel=${encodeURIComponent(invitation.channelId)}`}>
            Open the channel
          </Link>
        )}
      </div>
      {ownInvitation && (
        <p className="muted" role="note">
          This is your own invitation. Share its link with the person you invite.
        </p>
      )}
    </section>
  );
}

export function Component() {
  const invitationId = parseDocumentId(useParams().invitationId);
  const status = useAppSelector(selectAuthStatus);
  if (invitationId === null) return <InvalidInvitation />;
  if (status === 'unknown' || status === 'loading') return <LoadingScreen inline />;
  if (status === 'signedOut') {
    return (
      <section className="screen invitation" aria-labelledby="invite-signin-title">
        <p className="eyebrow">Invitation</p>
        <h1 id="invite-signin-title">You have been invited to QuPM</h1>
        <p className="muted">
          Sign in, or create an account, to see the invitation and accept it. You stay right here.
        </p>
        <AuthForm
          title="Sign in to continue"
          lead="Use the email the invitation was sent to, if it names one."
        />
      </section>
    );
  }
  return <Invitation id={invitationId} />;
}
