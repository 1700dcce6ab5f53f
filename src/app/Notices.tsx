// In-app notices: a message that arrived while this window had focus shows here instead of as a
// system notification, and off the home screen a new message from live data shows here even without push (issue
// #13; the notices are told which screen is on show). Text from the push renders as text, never as HTML.
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { noticeDismissed, screenShown, selectNotices } from '@/store/inboxSlice';

export function Notices() {
  const dispatch = useAppDispatch();
  const notices = useAppSelector(selectNotices);
  const { pathname } = useLocation();
  useEffect(() => {
    dispatch(screenShown({ path: pathname }));
  }, [dispatch, pathname]);
  // The live region stays mounted so screen readers announce notices that are added to it.
  return (
    <section className="notices" aria-label="Notifications" aria-live="polite">
      {notices.map((notice) => (
        <article className="notice" key={notice.id} data-message-id={notice.id}>
          <Link
            className="notice__body"
            to={notice.path}
            onClick={() => dispatch(noticeDismissed({ id: notice.id }))}
          >
            <strong className="notice__title">{notice.title || 'QuPM'}</strong>
            {notice.body && <span className="notice__text">{notice.body}</span>}
          </Link>
          <button
            type="button"
            className="notice__close"
            aria-label={`Dismiss: ${notice.title || 'notification'}`}
            onClick={() => dispatch(noticeDismissed({ id: notice.id }))}
          >
            ×
          </button>
        </article>
      ))}
    </section>
  );
}
