// Settings → Devices, below the push devices: where the account is signed in. Each session by
// its browser and system, when it signed in and was last used, this one marked; "Sign out" for any other, and
// "Sign out everywhere else". On Firebase, which cannot list sessions, this one only and "Sign out everywhere".
import { useEffect } from 'react';
import type { SignedInSession } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  otherSessionsSignOutRequested,
  selectSessions,
  sessionSignOutRequested,
  sessionsRequested,
} from './sessionsSlice';
import { formatFullTime } from '@/ui/time';

const when = (at: number): string => formatFullTime(at);

const nameOf = (session: SignedInSession): string => `${session.browser} on ${session.platform}`;

/** A name per session that no other row shares, for the buttons' accessible names ("Sign out Chrome on Android"). */
export function uniqueSessionNames(sessions: readonly SignedInSession[]): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  const count = new Map<string, number>();
  for (const session of sessions) count.set(nameOf(session), (count.get(nameOf(session)) ?? 0) + 1);
  for (const session of sessions) {
    let name = nameOf(session);
    if ((count.get(name) ?? 0) > 1) name = `${name}, signed in ${when(session.createdAt)}`;
    for (let n = 2; used.has(name); n += 1) name = `${nameOf(session)} (${n})`;
    used.add(name);
    names.set(session.id, name);
  }
  return names;
}

export function SessionsSection() {
  const dispatch = useAppDispatch();
  const sessions = useAppSelector(selectSessions);

  useEffect(() => {
    dispatch(sessionsRequested());
  }, [dispatch]);

  const names = uniqueSessionNames(sessions.items);
  const others = sessions.items.filter((session) => !session.current);

  return (
    <section className="devices sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="sessions__title">
        Where you are signed in
      </h2>
      <p className="muted sessions__lead">
        {sessions.listsEverySession
          ? 'Sign out any session you do not recognise. It stops at once, with its notifications.'
          : 'Only this session can be shown here. Signing out everywhere signs out every device, this one too.'}
      </p>
      {(sessions.status === 'idle' || sessions.status === 'loading') && sessions.items.length === 0 && (
        <p className="muted" role="status">
          Loading your sessions…
        </p>
      )}
      {sessions.error && (
        <p className="form-error" role="alert">
          {sessions.error}
        </p>
      )}
      {sessions.items.length > 0 && (
        <ul className="devices__list">
          {sessions.items.map((session) => {
            const ending = sessions.ending.includes(session.id);
            return (
              <li key={session.id} className="card devices__item">
                <div>
                  <p className="devices__name">
                    {nameOf(session)}
                    {session.current && <span className="badge devices__this">This device</span>}
                  </p>
                  <p className="muted devices__meta">
                    Signed in {when(session.createdAt)} · last used {when(session.lastUsedAt)}
                  </p>
                </div>
                {!session.current && (
                  <button
                    type="button"
                    className="button"
                    disabled={ending}
                    onClick={() => dispatch(sessionSignOutRequested({ id: session.id }))}
                    aria-label={`Sign out ${names.get(session.id) ?? nameOf(session)}`}
                  >
                    {ending ? 'Signing out…' : 'Sign out'}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {sessions.status === 'loaded' && (others.length > 0 || !sessions.listsEverySession) && (
        <div className="settings-form__actions">
          <button
            type="button"
            className="button"
            disabled={sessions.endingOthers}
            onClick={() => dispatch(otherSessionsSignOutRequested())}
          >
            {sessions.endingOthers
              ? 'Signing out…'
              : sessions.listsEverySession
                ? 'Sign out everywhere else'
                : 'Sign out everywhere'}
          </button>
        </div>
      )}
      {sessions.status === 'loaded' && sessions.listsEverySession && others.length === 0 && (
        <p className="muted" role="status">
          You are signed in on this device only.
        </p>
      )}
      {sessions.status === 'failed' && (
        <button type="button" className="button" onClick={() => dispatch(sessionsRequested())}>
          Try again
        </button>
      )}
    </section>
  );
}
