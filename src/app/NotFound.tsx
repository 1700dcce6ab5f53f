// Unknown routes: say so plainly and offer the way home.
import { Link, useLocation } from 'react-router-dom';

export function NotFound() {
  const { pathname } = useLocation();
  return (
    <section className="screen screen--center" aria-labelledby="not-found-title">
      <p className="eyebrow">404</p>
      <h1 id="not-found-title">This page does not exist</h1>
      <p className="muted">
        There is nothing at <code className="path">{pathname}</code>. The link may be old or mistyped.
      </p>
      <Link className="button button--primary" to="/">
        Go to the home screen
      </Link>
    </section>
  );
}
