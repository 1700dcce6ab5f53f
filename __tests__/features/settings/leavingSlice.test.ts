// Settings → Your data: the state of a download and of a deletion, and what a deletion leaves
// to say after the sign-out it causes.
import reducer, {
  accountDeleted,
  accountDeletionFailed,
  accountDeletionRequested,
  dataExported,
  dataExportFailed,
  dataExportRequested,
  initialState,
} from '@/features/settings/leavingSlice';
import { signedIn, signedOut } from '@/store/userSlice';

const user = { uid: 'u1', email: 'morgan@example.com', displayName: 'Morgan' };

describe('leavingSlice', () => {
  it('follows a download from preparing to saved, or to its failure', () => {
    const preparing = reducer(initialState, dataExportRequested());
    expect(preparing.export).toEqual({ status: 'preparing', fileName: null, error: null });
    expect(reducer(preparing, dataExported({ fileName: 'qupm-data-2026-11-23.json' })).export).toEqual({
      status: 'saved',
      fileName: 'qupm-data-2026-11-23.json',
      error: null,
    });
    expect(reducer(preparing, dataExportFailed({ message: 'Offline.' })).export).toEqual({
      status: 'failed',
      fileName: null,
      error: 'Offline.',
    });
  });

  it('keeps the password out of the state and says why a deletion was refused', () => {
    const deleting = reducer(initialState, accountDeletionRequested({ password: 'secret-words' }));
    expect(JSON.stringify(deleting)).not.toContain('secret-words');
    expect(deleting.deletion).toEqual({ status: 'deleting', error: null });
    expect(
      reducer(deleting, accountDeletionFailed({ message: 'That password is not right.' })).deletion,
    ).toEqual({
      status: 'failed',
      error: 'That password is not right.',
    });
  });

  it('remembers a deletion through the sign-out it causes, whichever comes first, until the next sign-in', () => {
    const deleting = reducer(initialState, accountDeletionRequested({ password: 'p' }));
    const signedOutFirst = reducer(reducer(deleting, signedOut()), accountDeleted());
    const deletedFirst = reducer(reducer(deleting, accountDeleted()), signedOut());
    for (const state of [signedOutFirst, deletedFirst]) expect(state.deletion.status).toBe('deleted');
    expect(reducer(deletedFirst, signedIn({ authUser: user }))).toEqual(initialState);
  });

  it('forgets a download and a failed deletion at sign-out', () => {
    const state = reducer(
      reducer(initialState, dataExported({ fileName: 'f.json' })),
      accountDeletionFailed({ message: 'No.' }),
    );
    expect(reducer(state, signedOut())).toEqual(initialState);
  });
});
