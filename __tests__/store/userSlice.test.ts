import reducer, {
  buildUserState,
  docChanged,
  fallbackUserState,
  initialState,
  accountLoaded,
  lastKnownShown,
  selectRole,
  signedIn,
  signedOut,
} from '@/store/userSlice';
import type { UserDoc } from '@core/model';

const authUser = { uid: 'u1', email: 'ada@example.com', displayName: 'Ada L.' };

const doc: UserDoc = {
  uid: 'u1',
  email: 'ada@example.com',
  isOwner: true,
  domainId: 'dom-1',
  nickname: 'Ada',
  displayName: 'Ada Lovelace',
  notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
  credits: 12,
  passCount: 3,
  effectiveConId: 'ignored-for-a-consultant',
};

describe('buildUserState', () => {
  it('makes a consultant of isOwner and uses their own uid as effectiveConId', () => {
    const state = buildUserState(authUser, doc, { isAdmin: false });
    expect(state).toMatchObject({
      isConsultant: true,
      effectiveConId: 'u1',
      credits: 12,
      passCount: 3,
      domainId: 'dom-1',
    });
  });

  it('takes admin from the claim only', () => {
    expect(buildUserState(authUser, doc, { isAdmin: true }).isAdmin).toBe(true);
    expect(buildUserState(authUser, { ...doc, isOwner: false }, { isAdmin: false }).isAdmin).toBe(false);
  });

  it("falls back from nickname to the document's display name, then to ''", () => {
    expect(buildUserState(authUser, { ...doc, nickname: '' }, { isAdmin: false }).nickname).toBe(
      'Ada Lovelace',
    );
    expect(
      buildUserState(authUser, { ...doc, nickname: undefined, displayName: undefined }, { isAdmin: false })
        .nickname,
    ).toBe('');
  });

  it("gives a regular user their consultant's id as effectiveConId", () => {
    const member = { ...doc, isOwner: false, effectiveConId: 'consultant-9' };
    expect(buildUserState(authUser, member, { isAdmin: false })).toMatchObject({
      isConsultant: false,
      effectiveConId: 'consultant-9',
    });
  });

  it('gives the spec defaults when there is no document', () => {
    expect(buildUserState(authUser, null, { isAdmin: false })).toEqual({
      authUser,
      isConsultant: false,
      effectiveConId: '',
      isAdmin: false,
      nickname: '',
      credits: 0,
      passCount: 0,
      domainId: undefined,
      userDocExists: false,
      notificationSettings: null,
    });
  });
});

describe('user reducer', () => {
  it('starts unknown with the spec initial values', () => {
    expect(initialState).toMatchObject({ status: 'unknown', credits: 0, passCount: 0, effectiveConId: '' });
  });

  it('clears everything on sign-out', () => {
    const signedInState = reducer(
      reducer(initialState, signedIn({ authUser })),
      accountLoaded(buildUserState(authUser, doc, { isAdmin: true })),
    );
    expect(signedInState.status).toBe('signedIn');
    expect(reducer(signedInState, signedOut())).toEqual({ ...initialState, status: 'signedOut' });
  });

  it('drops a late answer for an account that is no longer signed in', () => {
    const other = reducer(initialState, signedIn({ authUser: { ...authUser, uid: 'u2' } }));
    expect(reducer(other, accountLoaded(buildUserState(authUser, doc, { isAdmin: false })))).toBe(other);
  });

  it('follows a changed document but keeps the admin claim', () => {
    let state = reducer(
      reducer(initialState, signedIn({ authUser })),
      accountLoaded(buildUserState(authUser, doc, { isAdmin: true })),
    );
    state = reducer(state, docChanged({ doc: { ...doc, credits: 20, passCount: 5 } }));
    expect(state).toMatchObject({ credits: 20, passCount: 5, isAdmin: true, status: 'signedIn' });
  });

  it("ignores another account's document", () => {
    const state = reducer(
      reducer(initialState, signedIn({ authUser })),
      accountLoaded(fallbackUserState(authUser)),
    );
    expect(reducer(state, docChanged({ doc: { ...doc, uid: 'u2', credits: 99 } })).credits).toBe(0);
  });

  it('shows the last known state while the backend has not answered, for the account signed in only', () => {
    const loading = reducer(initialState, signedIn({ authUser }));
    const kept = { ...buildUserState(authUser, doc, { isAdmin: false }), asOf: 1_000 };
    expect(reducer(loading, lastKnownShown(kept))).toMatchObject({
      status: 'signedIn',
      credits: 12,
      asOf: 1_000,
    });
    expect(reducer(loading, lastKnownShown({ ...kept, authUser: { ...authUser, uid: 'u2' } }))).toBe(loading);
    // Live already: what was kept comes too late and changes nothing.
    // The backend answered "unread" first (offline): what was kept still shows, better than unknown.
    const unread = reducer(loading, accountLoaded({ ...fallbackUserState(authUser), asOf: 0 }));
    expect(reducer(unread, lastKnownShown(kept))).toMatchObject({ credits: 12, asOf: 1_000 });
    const live = reducer(loading, accountLoaded(buildUserState(authUser, doc, { isAdmin: false })));
    expect(reducer(live, lastKnownShown({ ...kept, credits: 1 }))).toBe(live);
  });

  it('keeps the last known figures when the document cannot be read (offline), and drops them once it is', () => {
    const shown = reducer(
      reducer(initialState, signedIn({ authUser })),
      lastKnownShown({ ...buildUserState(authUser, doc, { isAdmin: false }), asOf: 1_000 }),
    );
    const offline = reducer(shown, accountLoaded({ ...fallbackUserState(authUser), asOf: 0 }));
    expect(offline).toMatchObject({
      status: 'signedIn',
      credits: 12,
      passCount: 3,
      nickname: 'Ada',
      asOf: 1_000,
    });
    const live = reducer(offline, docChanged({ doc: { ...doc, credits: 11 } }));
    expect(live.credits).toBe(11);
    expect(live.asOf).toBeUndefined();
    // Nothing kept and nothing read: unknown, not zero.
    const unknown = reducer(
      reducer(initialState, signedIn({ authUser })),
      accountLoaded({ ...fallbackUserState(authUser), asOf: 0 }),
    );
    expect(unknown.asOf).toBe(0);
  });

  it('names the role: admin over consultant over member', () => {
    const at = (isAdmin: boolean, isConsultant: boolean) =>
      selectRole({ user: { ...initialState, isAdmin, isConsultant } });
    expect([at(true, true), at(false, true), at(false, false)]).toEqual(['admin', 'consultant', 'user']);
  });
});
