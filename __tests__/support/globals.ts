// The compile-time constants webpack's DefinePlugin provides to the bundle.
Object.assign(globalThis, {
  __APP_VERSION__: '0.0.0-test',
  __BUILD_TIME__: '2026-01-01T00:00:00.000Z',
  __BACKEND__: 'local',
  __PUSH_HOST_OVERRIDE__: false,
  __SERVICE_WORKER__: false,
  __FIREBASE_ENV__: {},
});
