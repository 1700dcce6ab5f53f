// The client's merge, as a property: whatever order live batches, page loads, catch-ups after a
// reconnect, the person's own sends, their retries and acknowledgements arrive in — repeats and overlaps
// included — the screen's view of a channel is always in (createdAt, id) order with each message once, and once
// everything has arrived it is exactly the backend's list, with nothing left pending.
import fc from 'fast-check';
import type { ChatMessage } from '@core/model';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { overviewLoaded, selectOverview } from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import {
  MESSAGES_PAGE,
  messagesLoaded,
  messagesRequested,
  olderLoaded,
  olderRequested,
  selectConversationView,
} from '@/store/conversationSlice';
import {
  messageAcknowledged,
  messageSendRequested,
  outboxRetryRequested,
  outboxSendPostponed,
  outboxSendRefused,
  outboxSendStarted,
} from '@/store/outboxSlice';
import { signedIn } from '@/store/userSlice';

const CHANNEL = 'ChannelProp000000001';
const ME = 'uidMe000000000000001';
const OTHERS = ['uidDana0000000000001', 'uidLeo00000000000001'];
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The backend's order, written here on its own (SQLite's BINARY collation): time, then id by code unit. */
const backendOrder = (a: ChatMessage, b: ChatMessage): number =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The backend's list: ids unique, many messages sharing a millisecond, some of them the person's own. */
const serverMessages = fc
  .uniqueArray(
    fc.record({
      id: fc.string({ unit: fc.constantFrom(...ID_CHARS), minLength: 20, maxLength: 20 }),
      at: fc.integer({ min: 0, max: 12 }),
      sender: fc.integer({ min: 0, max: 2 }),
    }),
    { minLength: 1, maxLength: 70, selector: (m) => m.id },
  )
  .map((raw) =>
    raw
      .map((m): ChatMessage => ({
        id: m.id,
        channelId: CHANNEL,
        senderId: m.sender === 0 ? ME : (OTHERS[m.sender - 1] ?? ''),
        senderName: m.sender === 0 ? 'Me' : 'Someone',
        text: `text of ${m.id}`,
        createdAt: 1_700_000_000_000 + m.at,
      }))
      .sort(backendOrder),
  );

type Step =
  | { kind: 'live'; picks: number[] }
  | { kind: 'page' }
  | { kind: 'older' }
  | { kind: 'resync'; from: number }
  | { kind: 'send'; pick: number }
  | { kind: 'trouble'; pick: number; refuse: boolean }
  | { kind: 'ack'; pick: number; echoFirst: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('live' as const),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant('page' as const) }),
  fc.record({ kind: fc.constant('older' as const) }),
  fc.record({ kind: fc.constant('resync' as const), from: fc.nat() }),
  fc.record({ kind: fc.constant('send' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('trouble' as const), pick: fc.nat(), refuse: fc.boolean() }),
  fc.record({ kind: fc.constant('ack' as const), pick: fc.nat(), echoFirst: fc.boolean() }),
);

function checkView(state: RootState, server: readonly ChatMessage[]): void {
  const { messages, pending } = selectConversationView(state, CHANNEL);
  const known = new Map(server.map((m) => [m.id, m]));
  for (let i = 1; i < messages.length; i += 1) {
    const before = messages[i - 1] as ChatMessage;
    expect(backendOrder(before, messages[i] as ChatMessage)).toBeLessThan(0);
  }
  for (const message of messages) expect(known.get(message.id)).toEqual(message);
  const shown = new Set(messages.map((m) => m.id));
  for (const entry of pending) expect(shown.has(entry.id)).toBe(false);
  expect(new Set(pending.map((e) => e.id)).size).toBe(pending.length);
}

describe('the conversation merge (property)', () => {
  it('shows every message once, in (createdAt, id) order, through any interleaving, and ends as the backend has it', () => {
    fc.assert(
      fc.property(serverMessages, fc.array(step, { maxLength: 60 }), (server, steps) => {
        const own = server.filter((m) => m.senderId === ME);
        let state = rootReducer(
          undefined,
          signedIn({ authUser: { uid: ME, email: 'me@x.test', displayName: 'Me' } }),
        );
        state = rootReducer(state, messagesRequested({ channelId: CHANNEL }));
        const sent = new Set<string>();
        const acked = new Set<string>();
        const apply = (action: { type: string; payload?: unknown }): void => {
          state = rootReducer(state, action);
          checkView(state, server);
        };
        const ack = (message: ChatMessage, echoFirst: boolean): void => {
          // The outbox saga's order: into the conversation, then out of the outbox; a live echo may come first.
          if (echoFirst) apply(messagesArrived({ messages: [message], ownUid: ME }));
          apply(messagesArrived({ messages: [message], ownUid: ME }));
          apply(messageAcknowledged({ message }));
          acked.add(message.id);
        };

        for (const s of steps) {
          switch (s.kind) {
            case 'live':
              apply(
                messagesArrived({
                  messages: s.picks.map((i) => server[i % server.length] as ChatMessage),
                  ownUid: ME,
                }),
              );
              break;
            case 'page':
              apply(messagesLoaded({ channelId: CHANNEL, messages: server.slice(-MESSAGES_PAGE) }));
              break;
            case 'older': {
              const oldest = selectConversationView(state, CHANNEL).messages[0];
              if (!oldest) break;
              const index = server.findIndex((m) => m.id === oldest.id);
              apply(olderRequested({ channelId: CHANNEL }));
              apply(
                olderLoaded({
                  channelId: CHANNEL,
                  messages: server.slice(Math.max(0, index - MESSAGES_PAGE), index),
                }),
              );
              break;
            }
            case 'resync':
              apply(messagesArrived({ messages: server.slice(s.from % server.length), ownUid: ME }));
              break;
            case 'send': {
              const message = own[s.pick % Math.max(1, own.length)];
              if (!message || sent.has(message.id)) break;
              sent.add(message.id);
              apply({
                type: messageSendRequested.type,
                payload: { channelId: CHANNEL, text: message.text, id: message.id, createdAt: Date.now() },
              });
              break;
            }
            case 'trouble': {
              const id = [...sent].filter((i) => !acked.has(i))[s.pick % Math.max(1, sent.size)];
              if (!id) break;
              apply(outboxSendStarted({ id }));
              if (s.refuse) {
                apply(outboxSendRefused({ id, error: 'Not a member.' }));
                apply(outboxRetryRequested({ id }));
              } else apply(outboxSendPostponed({ id, error: 'Offline.' }));
              break;
            }
            case 'ack': {
              const id = [...sent][s.pick % Math.max(1, sent.size)];
              const message = own.find((m) => m.id === id);
              // A retry after a lost answer is acknowledged again: the same stored message.
              if (message) ack(message, s.echoFirst);
              break;
            }
          }
        }
        // Everything arrives in the end: every send is acknowledged, and a catch-up brings the whole list.
        for (const id of sent) if (!acked.has(id)) ack(own.find((m) => m.id === id) as ChatMessage, false);
        apply(messagesArrived({ messages: server, ownUid: ME }));
        const view = selectConversationView(state, CHANNEL);
        expect(view.messages).toEqual(server);
        expect(view.pending).toEqual([]);
        expect(state.outbox.entries).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('never counts a message twice as unread, however often it is delivered', () => {
    fc.assert(
      fc.property(serverMessages, fc.array(fc.nat(), { maxLength: 40 }), (server, repeats) => {
        let state = rootReducer(undefined, { type: 'init' });
        state = rootReducer(
          state,
          overviewLoaded({
            items: [
              {
                channel: {
                  id: CHANNEL,
                  channelId: 'prop',
                  ownerId: OTHERS[0] ?? '',
                  title: 'Prop',
                  description: '',
                  members: [ME],
                  createdAt: 1,
                },
                lastMessage: null,
                unread: 0,
              },
            ],
          }),
        );
        // Delivered in order, as a subscription delivers, with repeats of what came before mixed in.
        server.forEach((message, i) => {
          const again = repeats
            .filter((r) => r % (i + 1) === 0)
            .map((r) => server[r % (i + 1)] as ChatMessage);
          state = rootReducer(state, messagesArrived({ messages: [...again, message], ownUid: ME }));
        });
        const others = server.filter((m) => m.senderId !== ME).length;
        expect(selectOverview(state)[0]?.unread).toBe(others);
        expect(selectOverview(state)[0]?.lastMessage).toEqual(server.at(-1));
      }),
      { numRuns: 300 },
    );
  });
});
