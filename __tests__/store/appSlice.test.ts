import reducer, {
  connectivityChanged,
  displayModeChanged,
  initialState,
  installPromptCaptured,
  installPromptUsed,
  selectOfflineReady,
  serviceWorkerTookControl,
  serviceWorkerRegistered,
  serviceWorkerRegistrationFailed,
  serviceWorkerRegistrationStarted,
  serviceWorkerUnsupported,
  started,
} from '@/store/appSlice';

const environment = {
  platform: 'android' as const,
  installed: true,
  online: false,
  deviceId: '0b6c2d2e-1f7a-4b8e-9a51-3f0f6a0f9d11',
};

describe('app reducer', () => {
  it('takes the environment read at start-up', () => {
    const state = reducer(initialState, started(environment));
    expect(state).toMatchObject({ ...environment, started: true });
  });

  it('follows connectivity and display-mode changes', () => {
    let state = reducer(initialState, connectivityChanged({ online: false }));
    expect(state.online).toBe(false);
    state = reducer(state, displayModeChanged({ installed: true }));
    expect(state.installed).toBe(true);
  });

  it('offers the install button only while a prompt is held', () => {
    const captured = reducer(initialState, installPromptCaptured());
    expect(captured.installPromptAvailable).toBe(true);
    expect(reducer(captured, installPromptUsed()).installPromptAvailable).toBe(false);
  });

  it('is offline-ready only once a registered worker controls the page', () => {
    let state = reducer(initialState, serviceWorkerRegistrationStarted());
    expect(selectOfflineReady({ app: state })).toBe(false);
    state = reducer(state, serviceWorkerRegistered());
    expect(selectOfflineReady({ app: state })).toBe(false);
    state = reducer(state, serviceWorkerTookControl({ isUpdate: false }));
    expect(selectOfflineReady({ app: state })).toBe(true);
  });

  it('keeps the message of a failed registration and clears it on the next attempt', () => {
    const failed = reducer(initialState, serviceWorkerRegistrationFailed({ message: 'SecurityError' }));
    expect(failed.serviceWorker).toEqual({ status: 'failed', controlling: false, error: 'SecurityError' });
    expect(reducer(failed, serviceWorkerRegistrationStarted()).serviceWorker.error).toBeNull();
  });

  it('records a browser without service workers', () => {
    expect(reducer(initialState, serviceWorkerUnsupported()).serviceWorker.status).toBe('unsupported');
  });
});
