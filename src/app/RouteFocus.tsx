// Where focus goes when the screen changes: after each navigation and after signing in, focus
// lands on the new screen's heading (its h1; the conversation's h2 when a channel opens), not on the body, and the
// change is announced. Headings become focusable by script only (tabindex -1), so Tab order is unchanged. A
// screen still loading gets its heading focused once it appears; nothing is taken from a field being typed in.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppSelector } from '@/store/hooks';
import { selectAuthStatus } from '@/store/userSlice';
import { FOCUS_SETTLE_MS } from '@/timings';
import './routeFocus.css';

/** The heading a screen change should focus: the conversation's title for a channel, else the screen's h1. */
export function headingToFocus(main: ParentNode, channelOpen: boolean): HTMLElement | null {
  const conversation = channelOpen ? main.querySelector<HTMLElement>('#conversation-title') : null;
  return conversation ?? main.querySelector<HTMLElement>('h1');
}

/** Someone is typing: a field keeps its focus whatever the screen does. */
function isTyping(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  return element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName);
}

export default function RouteFocus({ mainId = 'content' }: { mainId?: string }) {
  const location = useLocation();
  const status = useAppSelector(selectAuthStatus);
  const [announcement, setAnnouncement] = useState('');
  // A sign-in is a change from signed out to signed in; restoring a session on load is not.
  const wasSignedOut = useRef(false);
  const [signIns, setSignIns] = useState(0);
  useEffect(() => {
    if (status === 'signedOut') wasSignedOut.current = true;
    if (status === 'signedIn' && wasSignedOut.current) {
      wasSignedOut.current = false;
      setSignIns((n) => n + 1);
    }
  }, [status]);

  const channelOpen = new URLSearchParams(location.search).has('channel');
  const channelKey = channelOpen ? location.search : '';
  const firstRender = useRef(true);
  useEffect(() => {
    // The first screen of a visit is left as the browser loads it: nothing has changed yet.
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const main = document.getElementById(mainId);
    if (!main) return;
    const focusHeading = (): boolean => {
      const heading = headingToFocus(main, channelOpen);
      if (!heading) return false;
      if (!isTyping(document.activeElement)) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: false });
      }
      setAnnouncement(heading.textContent?.trim() ?? '');
      return true;
    };
    // The screen is still loading (its chunk, or the session): its heading is focused once it is there. Then, while
    // the screen settles, focus that falls to the body (its heading drawn again, or hidden a moment by a loading
    // part) goes back to the heading, until the person acts or FOCUS_SETTLE_MS have passed.
    let focused = focusHeading();
    let settle: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      observer.disconnect();
      clearTimeout(settle);
      document.removeEventListener('pointerdown', stop, true);
      document.removeEventListener('keydown', stop, true);
    };
    const settling = () => {
      settle = setTimeout(stop, FOCUS_SETTLE_MS);
      document.addEventListener('pointerdown', stop, true);
      document.addEventListener('keydown', stop, true);
    };
    const observer = new MutationObserver(() => {
      if (!focused) {
        focused = focusHeading();
        if (focused) settling();
      } else if (document.activeElement === null || document.activeElement === document.body) {
        focusHeading();
      }
    });
    observer.observe(main, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['style', 'hidden'],
    });
    if (focused) settling();
    return stop;
  }, [location.pathname, channelKey, signIns, mainId, channelOpen]);

  return (
    <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announcement}
    </p>
  );
}
