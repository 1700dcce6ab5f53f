// An invitation link whose id has the wrong shape: said plainly, and nothing is requested with it.
import { Link } from 'react-router-dom';

export function InvalidInvitation() {
  return (
    <section className="screen screen--center" aria-labelledby="invalid-invitation-title">
      <h1 id="invalid-invitation-title">This invitation link is not valid</h1>
      <p className="muted">
        The link may have been cut short or mistyped. Ask the consultant who invited you to send it again.
      </p>
      <Link className="button button--primary" to="/">
        Go to the home screen
      </Link>
    </section>
  );
}
