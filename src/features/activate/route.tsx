// `/activate/:invitationId` (issue #6): activates an accepted invitation and grants its passes and credits; the
// balances update at once (and live on the person's other devices). Expired, used, not found, not yours and not
// yet accepted invitations each get their own screen.
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { parseDocumentId } from '@core/ids';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  activateRequested,
  invitationRequested,
  selectActivateStep,
  selectViewedInvitation,
} from '@/store/invitationsSlice';
import { selectAuthStatus, selectUid } from '@/store/userSlice';
import { AuthForm } from '@/ui/AuthForm';
import { InvalidInvitation } from '@/ui/InvalidInvitation';
import { grantWords } from '@/ui/grantWords';
import { InvitationProblem, InvitationSummary, problemOf } from '@/ui/InvitationViews';
import { Balances } from '@/ui/Balances';
import { LoadingScreen } from '@/ui/LoadingScreen';

function Activation({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const viewed = useAppSelector(selectViewedInvitation);
  const step = useAppSelector(selectActivateStep);
  const uid = useAppSelector(selectUid);

  useEffect(() => {
    dispatch(invitationRequested({ id }));
  }, [dispatch, id]);

  if (step.status === 'done' && step.granted) {
    const channelId = viewed.invitation?.channelId;
    return (
      <section className="screen screen--center" aria-labelledby="activate-title">
        <p className="eyebrow">Activated</p>
        <h1 id="activate-title">You received {grantWords(step.granted)}</h1>
        <Balances />
        <div className="form-actions">
          {channelId && (
            <Link className="button button--primary" to={`/?channel=${encodeURIComponent(channelId)}`}>
              Open the channel
            </Link>
          )}
          <Link className="button" to="/services">
            Offers and services
          </Link>
        </div>
      </section>
    );
  }
  if (step.status === 'failed' && step.error) {
    return <InvitationProblem kind={problemOf(step.error)} invitationId={id} detail={step.error.message} />;
  }
  if (viewed.id !== id || viewed.status === 'loading' || viewed.status === 'idle')
    return <LoadingScreen inline />;
  if (viewed.status === 'failed' || !viewed.invitation) {
    return (
      <InvitationProblem
        kind={problemOf(viewed.error ?? { status: 'INTERNAL', message: '' })}
        invitationId={id}
        onRetry={() => dispatch(invitationRequested({ id }))}
      />
    );
  }
  const invitation = viewed.invitation;
  const mine = invitation.acceptedBy === uid;
  if (invitation.status === 'expired') return <InvitationProblem kind="expired" invitationId={id} />;
  if (invitation.status === 'pending') return <InvitationProblem kind="notAccepted" invitationId={id} />;
  if (!mine) return <InvitationProblem kind="used" invitationId={id} />;
  if (invitation.status === 'activated') {
    return (
      <section className="screen screen--center" aria-labelledby="activate-title">
        <h1 id="activate-title">This invitation is already activated</h1>
        <p className="muted">What it granted is in your balance.</p>
        <Link className="button button--primary" to={`/?channel=${encodeURIComponent(invitation.channelId)}`}>
          Open the channel
        </Link>
      </section>
    );
  }
  return (
    <section className="screen screen--center invitation" aria-labelledby="activate-title">
      <p className="eyebrow">Activation</p>
      <h1 id="activate-title">Activate your invitation to {invitation.channelTitle}</h1>
      <p className="muted">Activating adds {grantWords(invitation)} to your account. It works once.</p>
      <InvitationSummary invitation={invitation} />
      <div className="form-actions">
        <button
          type="button"
          className="button button--primary"
          disabled={step.status === 'sending'}
          onClick={() => dispatch(activateRequested({ id }))}
        >
          {step.status === 'sending' ? 'Activating…' : 'Activate'}
        </button>
      </div>
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
      <section className="screen invitation" aria-labelledby="activate-signin-title">
        <p className="eyebrow">Activation</p>
        <h1 id="activate-signin-title">Activate your invitation</h1>
        <p className="muted">Sign in with the account that accepted it. You stay right here.</p>
        <AuthForm title="Sign in to continue" />
      </section>
    );
  }
  return <Activation id={invitationId} />;
}
