import reducer, {
  initialState,
  photoFailed,
  photoLoaded,
  photoRemoved,
  photoRemoveRequested,
  photoRequested,
  photoSaved,
  photoSaveRequested,
  selectPhoto,
} from '@/features/settings/photoSlice';
import { docChanged, signedOut } from '@/store/userSlice';
import type { UserDoc } from '@core/model';

const doc = (photoURL?: string): UserDoc => ({
  uid: 'u1',
  email: 'ada@example.com',
  isOwner: false,
  notificationSettings: { enabled: false, delivery: { channels: [] } },
  credits: 0,
  passCount: 0,
  effectiveConId: '',
  ...(photoURL ? { photoURL } : {}),
});
const URL_1 = '/api/photos/AbCdEfGhIjKlMnOpQrSt';

describe('photoSlice', () => {
  it('reads the face there is when the screen opens', () => {
    const loading = reducer(initialState, photoRequested());
    expect(loading.status).toBe('loading');
    expect(reducer(loading, photoLoaded({ url: URL_1 }))).toEqual({
      status: 'idle',
      url: URL_1,
      error: null,
    });
  });

  it('says saving, then saved with the new face', () => {
    const saving = reducer(initialState, photoSaveRequested({ pictureId: 'p' }));
    expect(saving.status).toBe('saving');
    expect(reducer(saving, photoSaved({ url: URL_1 }))).toEqual({ status: 'saved', url: URL_1, error: null });
  });

  it('keeps the face it had when a save is refused, with the words', () => {
    const had = reducer(initialState, photoLoaded({ url: URL_1 }));
    const failed = reducer(
      reducer(had, photoSaveRequested({ pictureId: 'p' })),
      photoFailed({ message: 'No.' }),
    );
    expect(failed).toEqual({ status: 'failed', url: URL_1, error: 'No.' });
  });

  it('shows initials once removed', () => {
    const had = reducer(initialState, photoLoaded({ url: URL_1 }));
    expect(reducer(reducer(had, photoRemoveRequested()), photoRemoved())).toEqual({
      status: 'removed',
      url: null,
      error: null,
    });
  });

  it('follows the person document changed elsewhere (another window set or removed the face)', () => {
    const set = reducer(initialState, docChanged({ doc: doc(URL_1) }));
    expect(set.url).toBe(URL_1);
    expect(reducer(set, docChanged({ doc: doc() })).url).toBeNull();
  });

  it('forgets everything at sign-out, and reads as nothing before its module loaded', () => {
    const had = reducer(initialState, photoLoaded({ url: URL_1 }));
    expect(reducer(had, signedOut())).toEqual(initialState);
    expect(selectPhoto({})).toEqual(initialState);
  });
});
