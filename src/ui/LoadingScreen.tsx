// 'Loading QuPM...': the same markup and classes as public/index.html's pre-script screen, so the hand-over
// from HTML to React moves nothing. Also the fallback while a route's chunk loads.
export function LoadingScreen({ inline = false }: { inline?: boolean }) {
  return (
    <div className={inline ? 'boot boot--inline' : 'boot'} role="status" aria-live="polite">
      <div className="boot__mark" aria-hidden="true" />
      <p className="boot__text">Loading QuPM...</p>
    </div>
  );
}
