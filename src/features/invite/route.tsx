// `/invite/:invitationId`: the id is checked before anything uses it (a malformed one never reaches a backend).
// Showing the invitation and accepting it comes with the backend (issue #6).
import { useParams } from 'react-router-dom';
import { parseDocumentId } from '@core/ids';
import { InvalidInvitation } from '@/ui/InvalidInvitation';

export function Component() {
  const invitationId = parseDocumentId(useParams().invitationId);
  if (invitationId === null) return <InvalidInvitation />;
  return (
    <section className="screen screen--center" aria-labelledby="invite-title">
      <p className="eyebrow">Invitation</p>
      <h1 id="invite-title">You have been invited to QuPM</h1>
      <p className="muted">
        Invitation <code className="path">{invitationId}</code>. Sign in to see who invites you and to accept.
      </p>
    </section>
  );
}
