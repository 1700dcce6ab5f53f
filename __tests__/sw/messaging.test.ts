import { createMessageListener } from '@/sw/messages';
import { createMessagingState, enableMessaging } from '@/sw/messaging';

/** An ExtendableMessageEvent as the worker receives it, with a MessageChannel port to answer on. */
function messageEvent(data: unknown) {
  const answers: unknown[] = [];
  const port = { postMessage: (m: unknown) => answers.push(m) };
  return { event: { data, ports: [port], source: null } as unknown as ExtendableMessageEvent, answers };
}

describe('ENABLE_MESSAGING in the worker', () => {
  it('answers MESSAGING_ENABLED with the same eventId and turns messaging on', () => {
    const state = createMessagingState();
    const counters = { ignored: 0 };
    const listener = createMessageListener(
      { ENABLE_MESSAGING: (message, reply) => reply(enableMessaging(state, message, true)) },
      counters,
    );
    const { event, answers } = messageEvent({ type: 'ENABLE_MESSAGING', eventId: 'ev-1' });
    listener(event);
    expect(answers).toEqual([{ type: 'MESSAGING_ENABLED', success: true, eventId: 'ev-1' }]);
    expect(state.enabled).toBe(true);
  });

  it('answers success false where the worker has no PushManager, and stays off', () => {
    const state = createMessagingState();
    expect(enableMessaging(state, { type: 'ENABLE_MESSAGING', eventId: 'e' }, false)).toEqual({
      type: 'MESSAGING_ENABLED',
      success: false,
      eventId: 'e',
    });
    expect(state.enabled).toBe(false);
  });

  it('ignores and counts a malformed request, answering nothing', () => {
    const counters = { ignored: 0 };
    const handler = jest.fn();
    const listener = createMessageListener({ ENABLE_MESSAGING: handler }, counters);
    const { event, answers } = messageEvent({ type: 'ENABLE_MESSAGING', eventId: 42 });
    listener(event);
    expect(handler).not.toHaveBeenCalled();
    expect(answers).toEqual([]);
    expect(counters.ignored).toBe(1);
  });
});
