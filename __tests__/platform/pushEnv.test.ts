/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The browser's push edge as the app builds it (browserPushEnv), on a development host (jsdom's localhost):
// spec §5 "When push is disabled, registering a messaging service worker is rejected with an error saying it is
// blocked in development", and the override flag that turns push on there.
import { browserPushEnv } from '@/platform/pushEnv';

describe('browserPushEnv on localhost', () => {
  it('without the override: push is off, and the messaging worker registration is rejected as blocked in development', async () => {
    expect(location.hostname).toBe('localhost');
    const env = browserPushEnv(false);
    expect(env.environmentEnabled).toBe(false);
    const refusal = await env.messagingRegistration().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(Error);
    // The spec's words, not the constant the code writes the message with.
    expect((refusal as Error).message).toMatch(/blocked in development/);
  });

  it('with the override on (forced on in production builds): push is on', () => {
    expect(browserPushEnv(true).environmentEnabled).toBe(true);
  });
});
