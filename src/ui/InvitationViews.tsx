// What the invitation screens (/invite/:id and /activate/:id) share: the invitation in words, and one clear
// screen for each way it can fail (expired, used, not found, not yours, not accepted yet, offline).
import { Link } from 'react-router-dom';
import type { Invitation } from '@core/model';
import { invitePath } from '@core/paths';
import type { PlainFailure } from '@/store/status';
import { grantWords } from './grantWords';
import './facts.css';
import { formatFullTime } from './time';

/** What the summary shows: an invitation as its invitee reads it, or its public preview (which names no email). */
type Summarised = Pick<Invitation, 'consultantName' | 'channelTitle' | 'passes' | 'credits' | 'expiresAt'> & {
  inviteeEmail?: string;
  forOneEmail?: boolean;
};

export function InvitationSummary({ invitation }: { invitation: Summarised }) {
  return (
    <dl className="facts invitation-facts">
      <div className="facts__row">
        <dt>From</dt>
        <dd>{invitation.consultantName}</dd>
      </div>
      <div className="facts__row">
        <dt>Channel</dt>
        <dd>{invitation.channelTitle}</dd>
      </div>
      <div className="facts__row">
        <dt>Grants</dt>
        <dd>{grantWords(invitation)}</dd>
      </div>
      <div className="facts__row">
        <dt>Valid until</dt>
        <dd>{formatFullTime(invitation.expiresAt)}</dd>
      </div>
      {invitation.inviteeEmail ? (
        <div className="facts__row">
          <dt>For</dt>
          <dd>{invitation.inviteeEmail}</dd>
        </div>
      ) : (
        invitation.forOneEmail && (
          <div className="facts__row">
            <dt>For</dt>
            <dd>The email address it was sent to</dd>
          </div>
        )
      )}
    </dl>
  );
}

export type InvitationProblemKind =
  | 'expired'
  | 'used'
  | 'withdrawn'
  | 'notFound'
  | 'notYours'
  | 'emailNotConfirmed'
  | 'notAccepted'
  | 'unavailable';

/** Which problem a failure is, from its status and reason. */
export function problemOf(failure: PlainFailure): InvitationProblemKind {
  if (failure.reason === 'invitation-expired') return 'expired';
  if (failure.reason === 'invitation-used') return 'used';
  if (failure.reason === 'invitation-revoked') return 'withdrawn';
  if (failure.reason === 'email-not-verified') return 'emailNotConfirmed';
  if (failure.reason === 'invitation-not-yours' || failure.status === 'PERMISSION_DENIED') return 'notYours';
  if (failure.reason === 'invitation-not-accepted') return 'notAccepted';
  if (failure.status === 'NOT_FOUND' || failure.status === 'INVALID_ARGUMENT') return 'notFound';
  return 'unavailable';
}

const PROBLEMS: Record<InvitationProblemKind, { title: string; text: string }> = {
  expired: {
    title: 'This invitation has expired',
    text: 'Invitations last a limited time. Ask your consultant to send you a new one.',
  },
  used: {
    title: 'This invitation has already been used',
    text: 'Each invitation works once. If it was meant for you, ask your consultant for a new one.',
  },
  withdrawn: {
    title: 'This invitation was withdrawn',
    text: 'Its consultant revoked it, so it no longer works. Ask them for a new one if you still need it.',
  },
  notFound: {
    title: "We couldn't find this invitation",
    text: 'The link may be incomplete, or the invitation was withdrawn. Ask your consultant to send it again.',
  },
  notYours: {
    title: 'This invitation is for another account',
    text: 'Sign in with the email address the invitation was sent to.',
  },
  emailNotConfirmed: {
    title: 'Confirm your email address first',
    text: 'This invitation is for your email address. Open the confirmation link we emailed you, then open this invitation again.',
  },
  notAccepted: {
    title: 'Accept the invitation first',
    text: 'An invitation is accepted before it is activated.',
  },
  unavailable: {
    title: "The invitation couldn't be loaded",
    text: "QuPM can't be reached right now. Check your connection and try again.",
  },
};

export function InvitationProblem({
  kind,
  invitationId,
  detail,
  onRetry,
}: {
  kind: InvitationProblemKind;
  invitationId: string;
  /** The backend's own words, when they add something. */
  detail?: string;
  onRetry?: () => void;
}) {
  const { title, text } = PROBLEMS[kind];
  return (
    <section className="screen screen--center" aria-labelledby="invitation-problem-title">
      <h1 id="invitation-problem-title">{title}</h1>
      <p className="muted">{text}</p>
      {detail && detail !== text && <p className="muted">{detail}</p>}
      <div className="form-actions">
        {kind === 'notAccepted' && (
          <Link className="button button--primary" to={invitePath(invitationId)}>
            Open the invitation
          </Link>
        )}
        {kind === 'emailNotConfirmed' && (
          // Settings → Profile shows the address's state and sends the link again.
          <Link className="button button--primary" to="/settings/profile">
            Send the link again
          </Link>
        )}
        {kind === 'notYours' && (
          <Link className="button button--primary" to="/logout">
            Sign out
          </Link>
        )}
        {kind === 'unavailable' && onRetry && (
          <button type="button" className="button button--primary" onClick={onRetry}>
            Try again
          </button>
        )}
        <Link className="button" to="/">
          Go to the home screen
        </Link>
      </div>
    </section>
  );
}
