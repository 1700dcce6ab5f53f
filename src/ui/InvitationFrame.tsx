// The frame both invitation routes share (/invite/:id and /activate/:id): the id from the URL checked
// before anything uses it (a malformed one never reaches a backend), the session waited for, a signed-out visitor
// signing in right there (and staying on the invitation), the invitation asked for on every visit and shown as
// loading or as its problem until it is there, and the screen each step is drawn in. Each route supplies only
// what differs: its words and what it does with the invitation.
import { useEffect } from 'react';
import type { ReactElement, ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { parseDocumentId } from '@core/ids';
import type { Invitation } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { invitationRequested, selectViewedInvitation } from '@/store/invitationsSlice';
import { selectAuthStatus } from '@/store/userSlice';
import { AuthForm } from './AuthForm';
import { InvalidInvitation } from './InvalidInvitation';
import { InvitationProblem, problemOf } from './InvitationViews';
import { LoadingScreen } from './LoadingScreen';

/** One screen of an invitation route: a small heading above (`eyebrow`), the title, then what the step shows. */
export function InvitationScreen({
  titleId,
  eyebrow,
  title,
  className = 'screen screen--center',
  children,
}: {
  titleId: string;
  eyebrow?: string;
  title: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={titleId}>
      {eyebrow && <p className="eyebrow">{eyebrow}</p>}
      <h1 id={titleId}>{title}</h1>
      {children}
    </section>
  );
}

/**
 * An invitation route: renders `children` with the invitation id once the id has the right shape and someone is
 * signed in. A signed-out visitor gets `signIn`'s words and the sign-in form on the same route.
 */
export function InvitationRoute({
  signIn,
  signedOut,
  children,
}: {
  signIn: { titleId: string; eyebrow: string; title: string; text: string; formLead?: string };
  /** What a signed-out visitor sees instead of `signIn`'s words (the invitation's public preview). */
  signedOut?: (invitationId: string) => ReactNode;
  children: (invitationId: string) => ReactNode;
}) {
  const invitationId = parseDocumentId(useParams().invitationId);
  const status = useAppSelector(selectAuthStatus);
  if (invitationId === null) return <InvalidInvitation />;
  if (status === 'unknown' || status === 'loading') return <LoadingScreen inline />;
  if (status === 'signedOut') {
    if (signedOut) return signedOut(invitationId);
    return (
      <InvitationScreen
        className="screen invitation"
        titleId={signIn.titleId}
        eyebrow={signIn.eyebrow}
        title={signIn.title}
      >
        <p className="muted">{signIn.text}</p>
        <AuthForm title="Sign in to continue" lead={signIn.formLead} />
      </InvitationScreen>
    );
  }
  return children(invitationId);
}

export type ViewedInvitation =
  { invitation: Invitation; screen: null } | { invitation: Invitation | null; screen: ReactElement };

/**
 * Asks for invitation `id` on every visit and answers it once it is there. Until then `screen` is what to show
 * instead: loading, or the problem that stopped it (with Try again where trying again can help).
 */
export function useViewedInvitation(id: string): ViewedInvitation {
  const dispatch = useAppDispatch();
  const viewed = useAppSelector(selectViewedInvitation);

  useEffect(() => {
    dispatch(invitationRequested({ id }));
  }, [dispatch, id]);

  const invitation = viewed.id === id ? viewed.invitation : null;
  if (viewed.id !== id || viewed.status === 'loading' || viewed.status === 'idle')
    return { invitation, screen: <LoadingScreen inline /> };
  if (viewed.status === 'failed' || !invitation) {
    return {
      invitation,
      screen: (
        <InvitationProblem
          kind={problemOf(viewed.error ?? { status: 'INTERNAL', message: '' })}
          invitationId={id}
          onRetry={() => dispatch(invitationRequested({ id }))}
        />
      ),
    };
  }
  return { invitation, screen: null };
}
