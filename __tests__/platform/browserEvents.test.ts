/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import {
  createConnectivityChannel,
  createInstallPromptChannel,
  showInstallPrompt,
} from '@/platform/browserEvents';

describe('createConnectivityChannel', () => {
  it('emits the browser going offline and online, and removes its listeners when closed', () => {
    const seen: Array<boolean | null> = [];
    const channel = createConnectivityChannel(window);
    channel.take((e) => seen.push('online' in e ? e.online : null));
    window.dispatchEvent(new Event('offline'));
    channel.take((e) => seen.push('online' in e ? e.online : null));
    window.dispatchEvent(new Event('online'));
    channel.close();
    window.dispatchEvent(new Event('offline'));
    expect(seen).toEqual([false, true]);
  });
});

describe('createInstallPromptChannel', () => {
  it('holds the browser prompt, keeps the mini-infobar away and shows the prompt on request', async () => {
    const channel = createInstallPromptChannel(window);
    const events: string[] = [];
    channel.take((e) => events.push(e.type));
    const prompt = jest.fn(async () => undefined);
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(events).toEqual(['captured']);
    await expect(showInstallPrompt()).resolves.toBe(true);
    expect(prompt).toHaveBeenCalledTimes(1);
    // A prompt can be used once: a second request finds none.
    await expect(showInstallPrompt()).resolves.toBe(false);
    channel.close();
  });
});
