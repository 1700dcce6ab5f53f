// In-app notices (issue #5 part 3): a message that arrived while this window had focus shows here instead of as a
// system notification. Text from the push renders as text, never as HTML.
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { noticeDismissed, selectNotices } from '@/store/inboxSlice';

export function Notices() {
  const dispatch = useAppDispatch();
  const notices = useAppSelector(selectNotices);
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
