// A channel's description in the conversation's header. It may be 500 characters, and on a phone the header's
// buttons leave it a narrow column, so it shows two lines (conversation.css) and, when that cuts it, "Show all"
// opens the rest in place, as a channel's topic does in Element or Slack. The whole text is always in the page
// (screen readers read it all).
import { useLayoutEffect, useRef, useState } from 'react';

export function ChannelDescription({ text }: { text: string }) {
  const paragraph = useRef<HTMLParagraphElement>(null);
  const [clamped, setClamped] = useState(false);
  const [open, setOpen] = useState(false);

  useLayoutEffect(() => {
    const element = paragraph.current;
    if (!element) return;
    const measure = (): void => setClamped(element.scrollHeight > element.clientHeight + 1);
    measure();
    // The clamp depends on the width: a rotated phone or a resized window may cut it, or stop cutting it.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text]);

  return (
    <>
      <p
        ref={paragraph}
        dir="auto"
        className={`muted conversation__description${open ? ' conversation__description--open' : ''}`}
      >
        {text}
      </p>
      {(clamped || open) && (
        <button
          type="button"
          className="link-button conversation__more"
          aria-expanded={open}
          onClick={() => setOpen((was) => !was)}
        >
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </>
  );
}
