// Whether the person is looking at this page (what they see is read), and the moment the page goes
// away: browser edges as eventChannel factories, so the sagas that use them are tested without a browser; and the
// tab's title, which tells a person who is not looking that something is unread.
import { buffers, eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';

/** Looking at it: the page is visible and its window has the focus. */
export function isAttentive(): boolean {
  if (typeof document === 'undefined') return false;
  return document.visibilityState === 'visible' && document.hasFocus();
}

export type AttentionEvent = { attentive: boolean };

/** The tab's title (the unread count shows there while the person is not looking). */
export function setDocumentTitle(title: string): void {
  if (typeof document !== 'undefined' && document.title !== title) document.title = title;
}

/** Emits whenever the page becomes visible or hidden, or its window gains or loses the focus. */
export function createAttentionChannel(): EventChannel<AttentionEvent> {
  return eventChannel<AttentionEvent>((emit) => {
    if (typeof document === 'undefined' || typeof window === 'undefined') return () => undefined;
    const onChange = (): void => emit({ attentive: isAttentive() });
    document.addEventListener('visibilitychange', onChange);
    window.addEventListener('focus', onChange);
    window.addEventListener('blur', onChange);
    return () => {
      document.removeEventListener('visibilitychange', onChange);
      window.removeEventListener('focus', onChange);
      window.removeEventListener('blur', onChange);
    };
  }, buffers.sliding<AttentionEvent>(1));
}

export type PageHideEvent = { hidden: true };

/**
 * Emits when the page is hidden or unloaded (switching apps on a phone, closing the tab): the last moment work is
 * sure to run, so what must not be lost is written or sent (with keepalive) now.
 */
export function createPageHideChannel(): EventChannel<PageHideEvent> {
  return eventChannel<PageHideEvent>((emit) => {
    if (typeof document === 'undefined' || typeof window === 'undefined') return () => undefined;
    const onVisibility = (): void => {
      if (document.visibilityState === 'hidden') emit({ hidden: true });
    };
    const onPageHide = (): void => emit({ hidden: true });
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, buffers.sliding<PageHideEvent>(1));
}
