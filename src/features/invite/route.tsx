// `/invite/:invitationId` (issues #6): who invites to which channel and what it grants, and accept.
// Signed out, the invitation's public preview says so at once and opens on "Create account" (sign in one click
// away), or says plainly that it was used or has expired. Once accepted, activating is one click, and the person
// lands in the channel. The frame (the id checked, signing in on the same route, loading and failures) is
// src/ui/InvitationFrame.tsx; this route says what is particular to accepting.
import { useEffect } from 'react';
import { Link, Navigate } from 'react-router-dom';
import type { Invitation } from '@core/model';
import { activatePath, channelPath } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  acceptRequested,
  activateRequested,
  previewRequested,
  selectAcceptStep,
  selectActivateStep,
  selectInvitationPreview,
} from '@/store/invitationsSlice';
import { selectUid } from '@/store/userSlice';
import { AuthForm } from '@/ui/AuthForm';
import { InvitationRoute, InvitationScreen, useViewedInvitation } from '@/ui/InvitationFrame';
import { grantWords } from '@/ui/grantWords';
import { InvitationProblem, InvitationSummary, problemOf } from '@/ui/InvitationViews';
import { LoadingScreen } from '@/ui/LoadingScreen';

/** A signed-out visitor of the link: the invitation's preview, and creating an account (or signing in) right here. */
function SignedOutInvitation({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const preview = useAppSelector(selectInvitationPreview);
  useEffect(() => {
    dispatch(previewRequested({ id }));
  }, [dispatch, id]);

  if (preview.id !== id || preview.status === 'idle' || preview.status === 'loading')
    return <LoadingScreen inline />;
  if (preview.status === 'failed' || !preview.preview) {
    return (
      <InvitationProblem
        kind={problemOf(preview.error ?? { status: 'INTERNAL', message: '' })}
        invitationId={id}
        onRetry={() => dispatch(previewRequested({ id }))}
      />
    );
  }
  const shown = preview.preview;
  if (shown.state === 'expired') return <InvitationProblem kind="expired" invitationId={id} />;
  if (shown.state === 'withdrawn') return <InvitationProblem kind="withdrawn" invitationId={id} />;
  if (shown.state === 'used') {
    return (
      <InvitationScreen
        className="screen invitation"
        titleId="invite-signin-title"
        eyebrow="Invitation"
        title="This invitation has already been used"
      >
        <p className="muted">
          Each invitation works once. If it was meant for you, ask {shown.consultantName} for a new one.
        </p>
        <AuthForm title="Accepted it yourself?" lead="Sign in to open your channel." titleLevel={2} />
      </InvitationScreen>
    );
  }
  const grants = shown.passes > 0 || shown.credits > 0;
  return (
    <InvitationScreen
      className="screen invitation"
      titleId="invite-signin-title"
      eyebrow="Invitation"
      title={`${shown.consultantName} invites you to ${shown.channelTitle}`}
    >
      <p className="muted">
        Create your QuPM account to accept it
        {grants ? ` and receive ${grantWords(shown)}` : ''}. Already have one? Sign in. You stay right here.
      </p>
      <InvitationSummary invitation={shown} />
      <AuthForm
        title="Create your account"
        titleLevel={2}
        initialMode="signUp"
        lead={shown.forOneEmail ? 'Use the email address the invitation was sent to.' : undefined}
      />
    </InvitationScreen>
  );
}

function Acceptance({ id, invitation }: { id: string; invitation: Invitation }) {
  const dispatch = useAppDispatch();
  const accept = useAppSelector(selectAcceptStep);
  const activate = useAppSelector(selectActivateStep);
  const uid = useAppSelector(selectUid);

  const mine = invitation.acceptedBy !== undefined && invitation.acceptedBy === uid;
  // Activated from here: the person lands in the channel (the balances on the home screen show what it granted).
  if (mine && activate.id === id && activate.status === 'done') {
    return <Navigate to={channelPath(invitation.privateChannelId ?? invitation.channelId)} replace />;
  }
  if (invitation.status === 'expired') return <InvitationProblem kind="expired" invitationId={id} />;
  if (invitation.status === 'revoked') return <InvitationProblem kind="withdrawn" invitationId={id} />;
  if ((invitation.status === 'accepted' || invitation.status === 'activated') && !mine) {
    return <InvitationProblem kind="used" invitationId={id} />;
  }
  if (accept.status === 'failed' && accept.error) {
    return (
      <InvitationProblem kind={problemOf(accept.error)} invitationId={id} detail={accept.error.message} />
    );
  }
  if (activate.id === id && activate.status === 'failed' && activate.error) {
    return (
      <InvitationProblem kind={problemOf(activate.error)} invitationId={id} detail={activate.error.message} />
    );
  }

  const ownInvitation = invitation.consultantId === uid;
  const grants = invitation.passes > 0 || invitation.credits > 0;
  const activating = activate.id === id && activate.status === 'sending';
  return (
    <InvitationScreen
      className="screen screen--center invitation"
      titleId="invite-title"
      eyebrow="Invitation"
      title={
        invitation.privateConsultation === true
          ? mine
            ? `Your private consultation with ${invitation.consultantName} has started`
            : `${invitation.consultantName} invites you to a private consultation`
          : mine
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
              ? `One more step: activate it to receive ${grantWords(invitation)}, then you are in the channel.`
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
          <button
            type="button"
            className="button button--primary"
            disabled={activating}
            onClick={() => dispatch(activateRequested({ id }))}
          >
            {activating ? 'Activating…' : 'Activate and open the channel'}
          </button>
        )}
        {mine && (invitation.status !== 'accepted' || !grants) && (
          <Link
            className="button button--primary"
            to={channelPath(invitation.privateChannelId ?? invitation.channelId)}
          >
            {invitation.privateChannelId !== undefined ? 'Open the conversation' : 'Open the channel'}
          </Link>
        )}
        {mine && invitation.status === 'accepted' && grants && (
          <Link className="button" to={activatePath(id)}>
            Activation details
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
      signedOut={(id) => <SignedOutInvitation id={id} />}
    >
      {(id) => <InvitationPage id={id} />}
    </InvitationRoute>
  );
}
