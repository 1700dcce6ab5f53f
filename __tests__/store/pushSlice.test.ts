import reducer, {
  initialState,
  monitoringStopped,
  permissionBlocked,
  pushProviderRefused,
  selectPushGate,
  tokenCreationStarted,
  validationCooldownReset,
  validationFinished,
  validationSkipped,
  validationStarted,
  PERMISSION_SKIP_MESSAGES,
} from '@/store/pushSlice';
import { signedOut } from '@/store/userSlice';
import { initialState as pushTestState } from '../sagas/push/support';
import type { State } from '../sagas/push/support';

describe('push reducer', () => {
  it('runs a validation: validating, then active with the result, the cooldown counting from its start', () => {
    let state = reducer(initialState, validationStarted({ at: 1_000 }));
    expect(state).toMatchObject({ tokenStatus: 'validating', lastValidatedAt: 1_000 });
    state = reducer(
      state,
      validationFinished({ success: true, message: 'Current token is valid', rateLimited: false, at: 1_000 }),
    );
    expect(state).toMatchObject({ tokenStatus: 'active', lastError: null });
    expect(reducer(state, validationCooldownReset()).lastValidatedAt).toBeNull();
  });

  it('keeps the status as it was for a rate-limited answer', () => {
    const state = reducer(
      { ...initialState, tokenStatus: 'failed' },
      validationFinished({ success: true, message: 'Current token is valid', rateLimited: true, at: 5 }),
    );
    expect(state.tokenStatus).toBe('failed');
    expect(state.lastValidation).toMatchObject({ rateLimited: true });
  });

  it('remembers a validation skipped for the permission, leaving the token status and cooldown alone', () => {
    const state = reducer(
      { ...initialState, tokenStatus: 'active', lastValidatedAt: 7 },
      validationSkipped({ message: PERMISSION_SKIP_MESSAGES.default, at: 9 }),
    );
    expect(state).toMatchObject({ tokenStatus: 'active', lastValidatedAt: 7, lastError: null });
    expect(state.lastValidation).toEqual({
      success: false,
      rateLimited: false,
      message: PERMISSION_SKIP_MESSAGES.default,
      at: 9,
    });
  });

  it('keeps the browser facts but nothing of the account at sign-out', () => {
    let state = reducer(
      {
        ...initialState,
        permission: 'granted',
        environmentEnabled: true,
        support: { supported: true, missing: [] },
      },
      tokenCreationStarted({ attempt: 2 }),
    );
    state = reducer(state, permissionBlocked({ message: 'blocked' }));
    state = reducer(state, signedOut());
    expect(state).toEqual({
      ...initialState,
      permission: 'granted',
      environmentEnabled: true,
      support: { supported: true, missing: [] },
    });
  });

  it('resets the token status when monitoring stops', () => {
    expect(
      reducer({ ...initialState, tokenStatus: 'creating', creationAttempt: 2 }, monitoringStopped()),
    ).toMatchObject({
      tokenStatus: 'off',
      creationAttempt: 0,
      monitoring: false,
    });
  });
});

describe('selectPushGate (spec §5)', () => {
  const gate = (state: State) => selectPushGate(state);
  const withSupport = (state: State, missing: Array<'pushManager' | 'indexedDb'>): State => ({
    ...state,
    push: { ...state.push, support: { supported: false, missing } },
  });

  it('opens for a signed-in person whose document allows push, on a supported, enabled host', () => {
    expect(gate(pushTestState())).toEqual({ open: true, uid: expect.any(String), reason: null });
  });

  it.each([
    ['the app is not mounted', pushTestState({ mounted: false }), 'notMounted'],
    ['nobody is signed in', pushTestState({ signedIn: false }), 'signedOut'],
    ['the host is a development host', pushTestState({ environmentEnabled: false }), 'environment'],
    [
      'notifications are off',
      pushTestState({ settings: { enabled: false, delivery: { channels: ['push'] } } }),
      'notificationsOff',
    ],
    [
      'push is not chosen',
      pushTestState({ settings: { enabled: true, delivery: { channels: ['in_app'] } } }),
      'pushNotChosen',
    ],
    ['the browser lacks the Push API', withSupport(pushTestState(), ['pushManager']), 'unsupported'],
    ['only IndexedDB is missing', withSupport(pushTestState(), ['indexedDb']), 'noIndexedDb'],
  ] as const)('stays closed when %s', (_label, state, reason) => {
    expect(gate(state)).toMatchObject({ open: false, reason });
  });

  it.each([
    ['unsupportedBrowser', 'refusedByBrowser'],
    ['noIndexedDb', 'noIndexedDb'],
  ] as const)(
    'stays closed once the push provider refused the browser (%s), through a sign-out too',
    (refusal, reason) => {
      const state = pushTestState();
      expect(gate(state)).toMatchObject({ open: true });
      const push = reducer(state.push, pushProviderRefused({ refusal, message: 'no' }));
      expect(gate({ ...state, push })).toMatchObject({ open: false, reason });
      expect(reducer(push, signedOut()).providerRefusal).toBe(refusal);
    },
  );

  it('stays closed without a user document', () => {
    const state = pushTestState();
    expect(gate({ ...state, user: { ...state.user, userDocExists: false } })).toMatchObject({
      reason: 'noUserDoc',
    });
  });
});
