// The services screen: the consultant's services and the person's active offers (filled by issue #6 through
// get_user_active_offers). Until someone is signed in there is nothing personal to list.
export function Component() {
  return (
    <section className="screen" aria-labelledby="services-title">
      <h1 id="services-title">Services</h1>
      <div className="card empty-state">
        <h2>No offers yet</h2>
        <p className="muted">
          When a consultant sends you an offer, it appears here with its discount and how long it lasts.
        </p>
      </div>
    </section>
  );
}
