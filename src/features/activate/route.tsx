// `/activate/:invitationId`: activates an accepted invitation and grants its passes and credits; the
// balances update at once (and live on the person's other devices). The frame (the id checked, signing in on the
// same route, loading and failures) is src/ui/InvitationFrame.tsx; this route says what is particular to
// activating: expired, used, not yours and not yet accepted invitations each get their own screen.
import { Link } from 'react-router-dom';
import { channelPath } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { activateRequested, selectActivateStep } from '@/store/invitationsSlice';
import { selectUid } from '@/store/userSlice';
import { Balances } from '@/ui/Balances';
import { InvitationRoute, InvitationScreen, useViewedInvitation } from '@/ui/InvitationFrame';
import { grantWords } from '@/ui/grantWords';
import { InvitationProblem, InvitationSummary, problemOf } from '@/ui/InvitationViews';

function Activation({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const viewed = useViewedInvitation(id);
  const step = useAppSelector(selectActivateStep);
  const uid = useAppSelector(selectUid);

  if (step.status === 'done' && step.granted) {
    const channelId = viewed.invitation?.privateChannelId ?? viewed.invitation?.channelId;
    return (
      <InvitationScreen
        titleId="activate-title"
        eyebrow="Activated"
        title={`You received ${grantWords(step.granted)}`}
      >
        <Balances />
        <div className="form-actions">
          {channelId && (
            <Link className="button button--primary" to={channelPath(channelId)}>
              Open the channel
            </Link>
          )}
          <Link className="button" to="/services">
            Offers and services
          </Link>
        </div>
      </InvitationScreen>
    );
  }
  if (step.status === 'failed' && step.error) {
    return <InvitationProblem kind={problemOf(step.error)} invitationId={id} detail={step.error.message} />;
  }
  if (viewed.screen) return viewed.screen;
  const invitation = viewed.invitation;
  const mine = invitation.acceptedBy === uid;
  if (invitation.status === 'expired') return <InvitationProblem kind="expired" invitationId={id} />;
  if (invitation.status === 'pending') return <InvitationProblem kind="notAccepted" invitationId={id} />;
  if (!mine) return <InvitationProblem kind="used" invitationId={id} />;
  if (invitation.status === 'activated') {
    return (
      <InvitationScreen titleId="activate-title" title="This invitation is already activated">
        <p className="muted">What it granted is in your balance.</p>
        <Link
          className="button button--primary"
          to={channelPath(invitation.privateChannelId ?? invitation.channelId)}
        >
          Open the channel
        </Link>
      </InvitationScreen>
    );
  }
  return (
    <InvitationScreen
      className="screen screen--center invitation"
      titleId="activate-title"
      eyebrow="Activation"
      title={`Activate your invitation to ${invitation.channelTitle}`}
    >
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
    </InvitationScreen>
  );
}

export function Component() {
  return (
    <InvitationRoute
      signIn={{
        titleId: 'activate-signin-title',
        eyebrow: 'Activation',
        title: 'Activate your invitation',
        text: 'Sign in with the account that accepted it. You stay right here.',
      }}
    >
      {(id) => <Activation id={id} />}
    </InvitationRoute>
  );
}
