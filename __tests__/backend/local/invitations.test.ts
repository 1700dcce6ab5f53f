// The local adapter's live invitations: the 'invitations' stream event, and every (re)open of the
// stream, tell the listener to read the invitations addressed to the person again; anything else is dropped. And
// its live mutes, on the same stream: the 'mutes' event's map, a read after every (re)open.
import { flush, json, NOW, setup } from './support/liveBackend';

describe('invitations.subscribeMyInvitations (local)', () => {
  it('asks for a read when the stream opens and when an invitation addressed to the person changed', async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    expect(listener).toHaveBeenCalledTimes(1);
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['not JSON', 'changed'],
    ['JSON that is no object', 'true'],
    ['an object of another shape', '{"invitation":{"id":"x"}}'],
    ['changed that is not true', '{"changed":"yes"}'],
  ])('drops an event that is %s', async (_label, data) => {
    const { backend, last } = setup();
    const listener = jest.fn();
    backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    listener.mockClear();
    expect(() => last().emit('invitations', data)).not.toThrow();
    expect(listener).not.toHaveBeenCalled();
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('after a dropped connection, asks for a read again when it is back, and hears events again', async () => {
    const { backend, sources, last } = setup();
    const listener = jest.fn();
    backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    last().fail();
    // The old connection is gone: what it might still deliver is not heard.
    sources[0]!.emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(1);
    await flush();
    await flush();
    expect(sources).toHaveLength(2);
    last().open();
    expect(listener).toHaveBeenCalledTimes(2);
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('hears nothing once unsubscribed, and closes the stream it no longer needs', async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    const stop = backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    stop();
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(last().closed).toBe(true);
  });
});

describe('mutes.subscribeMutes (local)', () => {
  const MUTED = { c1: NOW + 3_600_000 };

  /** Every read of /api/mutes waits until the test answers it. */
  function withReads() {
    const reads: Array<(mutes: Record<string, number>) => void> = [];
    const env = setup((url) =>
      url.endsWith('/api/mutes')
        ? new Promise((resolve) => reads.push((mutes) => resolve(json({ mutes }))))
        : undefined,
    );
    return { ...env, reads };
  }

  /** A listener subscribed and the stream opened: the read the opening asks for is `reads[0]`. */
  async function subscribedAndOpen() {
    const env = withReads();
    const listener = jest.fn();
    const stop = env.backend.mutes.subscribeMutes(listener);
    await flush();
    env.last().open();
    await flush();
    return { ...env, listener, stop };
  }

  it('reads them when the stream opens, and takes each mutes event as it comes', async () => {
    const { last, reads, listener } = await subscribedAndOpen();
    reads[0]?.({});
    await flush();
    await flush();
    expect(listener.mock.calls).toEqual([[{}]]);
    last().emit('mutes', JSON.stringify({ mutes: MUTED }));
    last().emit('mutes', JSON.stringify({ mutes: {} }));
    expect(listener.mock.calls).toEqual([[{}], [MUTED], [{}]]);
  });

  it('drops a read answered after a newer event: an old answer never undoes a newer mute', async () => {
    const { last, reads, listener } = await subscribedAndOpen();
    last().emit('mutes', JSON.stringify({ mutes: MUTED }));
    reads[0]?.({});
    await flush();
    await flush();
    expect(listener.mock.calls).toEqual([[MUTED]]);
  });

  it('reads them instead of taking an event whose mutes are not channel ids to mute ends', async () => {
    const { last, reads, listener } = await subscribedAndOpen();
    reads[0]?.({});
    await flush();
    await flush();
    listener.mockClear();
    last().emit('mutes', JSON.stringify({ mutes: { c1: 'tomorrow' } }));
    await flush();
    expect(listener).not.toHaveBeenCalled();
    reads[1]?.(MUTED);
    await flush();
    await flush();
    expect(listener.mock.calls).toEqual([[MUTED]]);
  });

  it('hears nothing once unsubscribed', async () => {
    const { last, reads, listener, stop } = await subscribedAndOpen();
    stop();
    reads[0]?.(MUTED);
    await flush();
    last().emit('mutes', JSON.stringify({ mutes: MUTED }));
    expect(listener).not.toHaveBeenCalled();
  });
});
