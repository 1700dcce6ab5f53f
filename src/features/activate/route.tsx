// `/activate/:invitationId`: the id is checked before anything uses it. Activation itself (granting the
// invitation's passes and credits) comes with the backend (issue #6).
import { useParams } from 'react-router-dom';
import { parseDocumentId } from '@core/ids';
import { InvalidInvitation } from '@/ui/InvalidInvitation';

export function Component() {
  const invitationId = parseDocumentId(useParams().invitationId);
  if (invitationId === null) return <InvalidInvitation />;
  return (
    <section className="screen screen--center" aria-labelledby="activate-title">
      <p className="eyebrow">Activation</p>
      <h1 id="activate-title">Activate your invitation</h1>
      <p className="muted">
        Invitation <code className="path">{invitationId}</code>. Sign in to activate it and receive what it
        grants.
      </p>
    </section>
  );
}
