// The card of the invitations waiting for the person (InvitationsForYou.tsx): who invites them to what, and what
// it grants; each leads to its /invite page.
import { Link } from 'react-router-dom';
import type { Invitation } from '@core/model';
import { invitePath } from '@core/paths';
import { grantWords } from '@/ui/grantWords';
import './invitationsForYou.css';

export default function InvitationsCard({ items }: { items: Invitation[] }) {
  return (
    <section className="card invitations-for-you__card" aria-labelledby="invitations-for-you-title">
      <h2 id="invitations-for-you-title">
        {items.length === 1 ? 'An invitation for you' : `${items.length} invitations for you`}
      </h2>
      <ul className="invitations-for-you__list">
        {items.map((invitation) => (
          <li key={invitation.id} className="invitations-for-you__item">
            <p>
              <strong>{invitation.consultantName}</strong> invites you to{' '}
              <strong>{invitation.channelTitle}</strong>
              <span className="muted"> — {grantWords(invitation)}</span>
            </p>
            <Link className="button button--primary button--small" to={invitePath(invitation.id)}>
              View invitation
              {/* Each link's name says which invitation it opens (names unique in their screen). */}
              <span className="visually-hidden"> to {invitation.channelTitle}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
