import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { channel } from 'redux-saga';
import {
  appSaga,
  handleInstallRequested,
  readEnvironment,
  readInstalled,
  watchConnectivity,
  watchDisplayMode,
  watchInstallPrompt,
} from '@/sagas/appSaga';
import {
  createConnectivityChannel,
  createDisplayModeChannel,
  createInstallPromptChannel,
  showInstallPrompt,
} from '@/platform/browserEvents';
import type { ConnectivityEvent, InstallPromptEvent } from '@/platform/browserEvents';
import appReducer, { initialState, installRequested } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';

const environment = {
  platform: 'ios' as const,
  installed: false,
  online: true,
  deviceId: '0b6c2d2e-1f7a-4b8e-9a51-3f0f6a0f9d11',
};

const withApp = (state: { app: AppState } = { app: initialState }, action: { type: string }) => ({
  app: appReducer(state.app, action as never),
});

describe('appSaga', () => {
  it('puts the environment it read at start-up and listens to the browser', async () => {
    const result = await expectSaga(appSaga)
      .withReducer(withApp)
      .provide([
        [matchers.call.fn(readEnvironment), environment],
        [matchers.call.fn(createConnectivityChannel), channel()],
        [matchers.call.fn(createDisplayModeChannel), channel()],
        [matchers.call.fn(createInstallPromptChannel), channel()],
      ])
      .silentRun(20);
    expect((result.storeState as { app: AppState }).app).toMatchObject({ ...environment, started: true });
  });
});

describe('watchConnectivity', () => {
  it('follows the browser going offline and back', async () => {
    const events = channel<ConnectivityEvent>();
    const pending = expectSaga(watchConnectivity, events).withReducer(withApp).silentRun(30);
    events.put({ online: false });
    expect(((await pending).storeState as { app: AppState }).app.online).toBe(false);
  });
});

describe('watchDisplayMode', () => {
  it('reads the install state again when the display mode changes', async () => {
    const events = channel<{ changed: true }>();
    const pending = expectSaga(watchDisplayMode, events)
      .withReducer(withApp)
      .provide([[matchers.call.fn(readInstalled), true]])
      .silentRun(30);
    events.put({ changed: true });
    expect(((await pending).storeState as { app: AppState }).app.installed).toBe(true);
  });
});

describe('watchInstallPrompt', () => {
  it('offers installing while a prompt is held and counts the app installed after it', async () => {
    const events = channel<InstallPromptEvent>();
    const pending = expectSaga(watchInstallPrompt, events).withReducer(withApp).silentRun(30);
    events.put({ type: 'captured' });
    events.put({ type: 'installed' });
    const { app } = (await pending).storeState as { app: AppState };
    expect(app.installPromptAvailable).toBe(false);
    expect(app.installed).toBe(true);
  });
});

describe('handleInstallRequested', () => {
  it('shows the held prompt once and hides the install button', async () => {
    const result = await expectSaga(handleInstallRequested)
      .withReducer(withApp, { app: { ...initialState, installPromptAvailable: true } })
      .provide([[matchers.call.fn(showInstallPrompt), true]])
      .call(showInstallPrompt)
      .run();
    expect((result.storeState as { app: AppState }).app.installPromptAvailable).toBe(false);
  });

  it('survives a prompt that throws', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expectSaga(handleInstallRequested)
      .provide({
        call(effect, next) {
          if (effect.fn === showInstallPrompt) throw new Error('not allowed');
          return next();
        },
      })
      .run();
    expect(warn).toHaveBeenCalled();
  });

  it('is started by installRequested', async () => {
    await expectSaga(appSaga)
      .provide([
        [matchers.call.fn(readEnvironment), environment],
        [matchers.call.fn(createConnectivityChannel), channel()],
        [matchers.call.fn(createDisplayModeChannel), channel()],
        [matchers.call.fn(createInstallPromptChannel), channel()],
        [matchers.call.fn(showInstallPrompt), false],
      ])
      .dispatch(installRequested())
      .call(showInstallPrompt)
      .silentRun(30);
  });
});
