// The sessions slice: the list, sign-outs in progress, and the password form's state.
import sessions, {
  initialState,
  otherSessionsSignOutRequested,
  otherSessionsSignedOut,
  passwordChangeFailed,
  passwordChangeRequested,
  passwordChanged,
  selectSessions,
  sessionSignOutFailed,
  sessionSignOutRequested,
  sessionSignedOut,
  sessionsLoaded,
} from '@/features/settings/sessionsSlice';
import { signedOut } from '@/store/userSlice';
import type { SignedInSession } from '@core/model';

const session = (id: string, current = false): SignedInSession => ({
  id,
  browser: 'Chrome',
  platform: 'Android',
  createdAt: 1,
  lastUsedAt: 2,
  current,
});
const loaded = sessions(
  undefined,
  sessionsLoaded({ items: [session('a', true), session('b'), session('c')], listsEverySession: true }),
);

describe('sessionsSlice', () => {
  it('removes a session once it is signed out, and keeps the others', () => {
    const ending = sessions(loaded, sessionSignOutRequested({ id: 'b' }));
    expect(ending.ending).toEqual(['b']);
    const after = sessions(ending, sessionSignedOut({ id: 'b' }));
    expect(after.items.map((s) => s.id)).toEqual(['a', 'c']);
    expect(after.ending).toEqual([]);
  });

  it('keeps the row and says why when a sign-out fails', () => {
    const after = sessions(
      sessions(loaded, sessionSignOutRequested({ id: 'b' })),
      sessionSignOutFailed({ id: 'b', message: 'Offline.' }),
    );
    expect(after.items).toHaveLength(3);
    expect(after).toMatchObject({ ending: [], error: 'Offline.' });
  });

  it('keeps only this session after "everywhere else"', () => {
    const after = sessions(sessions(loaded, otherSessionsSignOutRequested()), otherSessionsSignedOut());
    expect(after.items.map((s) => s.id)).toEqual(['a']);
    expect(after.endingOthers).toBe(false);
  });

  it('follows a change of password from saving to saved or failed', () => {
    const saving = sessions(
      loaded,
      passwordChangeRequested({ currentPassword: 'x', newPassword: 'y'.repeat(8) }),
    );
    expect(saving.password).toEqual({ status: 'saving', error: null });
    expect(sessions(saving, passwordChanged()).password).toEqual({ status: 'saved', error: null });
    expect(sessions(saving, passwordChangeFailed({ message: 'Not right.' })).password).toEqual({
      status: 'failed',
      error: 'Not right.',
    });
  });

  it('forgets everything at sign-out, and reads as empty before its chunk is loaded', () => {
    expect(sessions(loaded, signedOut())).toEqual(initialState);
    expect(selectSessions({})).toEqual(initialState);
  });
});
