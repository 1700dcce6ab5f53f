/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// What arrives in the open channel redraws the rows it changes, not every row already drawn (some 30 on a laptop, in
// the frame the new message waits for): each bubble's counts and Reply/React listened to the whole conversation (for
// the names of who reacted), and each own message's receipt line to every move of the receipts, though only the
// newest shows one.
import { Profiler } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MessageReactions } from '@/features/conversation/MessageReplies';
import { ReceiptStatus } from '@/features/conversation/ReceiptStatus';
import { receiptsLoaded } from '@/store/receiptsSlice';
import { overviewLoaded } from '@/store/channelsSlice';
import { messagesLoaded } from '@/store/conversationSlice';
import { membersLoaded } from '@/store/membersSlice';
import { messagesArrived } from '@/store/messages';
import { signedIn } from '@/store/userSlice';
import type { ChatMessage } from '@core/model';
import { recordActions } from '../../support/recordingStore';
import { STUDIO_ID, studioChannel } from '../../support/studioChannel';

const OWNER = 'uidOwner000000000001';
const MEMBER = 'uidMember00000000001';
const VISITOR = 'uidVisitor0000000001';
const SENT = Date.UTC(2026, 0, 15, 10, 42);
const channel = studioChannel({ ownerId: OWNER, description: '', members: [MEMBER] });
const message = (n: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: `m${String(n).padStart(19, '0')}`,
  channelId: STUDIO_ID,
  senderId: n % 2 === 0 ? OWNER : MEMBER,
  senderName: n % 2 === 0 ? 'Dana' : 'Morgan',
  text: `Message ${n}`,
  createdAt: SENT + n * 60_000,
  ...extra,
});

afterEach(cleanup);

function renderRows(shown: ChatMessage[], Row: typeof MessageReactions = MessageReactions) {
  const { store, dispatch } = recordActions();
  dispatch(signedIn({ authUser: { uid: MEMBER, email: 'x@example.com', displayName: null } }));
  dispatch(overviewLoaded({ items: [{ channel, lastMessage: null, unread: 0 }] }));
  dispatch(messagesLoaded({ channelId: STUDIO_ID, messages: shown }));
  const renders: string[] = [];
  render(
    <Provider store={store}>
      {shown.map((m) => (
        <Profiler key={m.id} id={m.id} onRender={(id) => renders.push(id)}>
          <Row message={m} />
        </Profiler>
      ))}
    </Provider>,
  );
  return { dispatch, renders };
}

describe("a row's reactions as messages arrive", () => {
  it('are not redrawn when another message arrives', () => {
    const shown = [message(1), message(2, { reactions: { [OWNER]: '👍' } }), message(3)];
    const { dispatch, renders } = renderRows(shown);
    renders.length = 0;
    act(() => {
      dispatch(messagesArrived({ messages: [message(4)], ownUid: MEMBER }));
      dispatch(messagesArrived({ messages: [message(5)], ownUid: MEMBER }));
    });
    expect(renders).toEqual([]);
  });

  it('still name who reacted: "You", the name beside their messages, a member once the members are in', () => {
    const shown = [message(1), message(2, { reactions: { [OWNER]: '👍', [MEMBER]: '👍', [VISITOR]: '❤️' } })];
    const { dispatch } = renderRows(shown);
    expect(
      screen.getByRole('button', { name: /^Thumbs up, 2: You and Dana\. Take yours back\.$/ }),
    ).toBeTruthy();
    // Sam has no message in the window and the members are not in yet.
    expect(screen.getByRole('button', { name: /^Heart, 1: Someone\. Add yours\.$/ })).toBeTruthy();
    act(() => {
      dispatch(
        membersLoaded({
          channelId: STUDIO_ID,
          items: [{ uid: VISITOR, name: 'Sam Patel', role: 'member', joinedAt: SENT }],
        }),
      );
    });
    expect(screen.getByRole('button', { name: /^Heart, 1: Sam Patel\. Add yours\.$/ })).toBeTruthy();
  });
});

describe("an own message's receipt line as the receipts move", () => {
  it('redraws the newest own message alone, which says "Seen"', () => {
    const shown = [message(1), message(2), message(3), message(5)];
    const { dispatch, renders } = renderRows(shown, ReceiptStatus);
    expect(screen.getByText('Sent')).toBeTruthy();
    renders.length = 0;
    const newest = { createdAt: shown[3]!.createdAt, id: shown[3]!.id };
    act(() => {
      dispatch(
        receiptsLoaded({
          channelId: STUDIO_ID,
          receipts: [{ uid: OWNER, name: 'Dana', read: newest, readAt: SENT + 600_000, delivered: newest }],
        }),
      );
    });
    expect(renders).toEqual([shown[3]!.id]);
    expect(screen.getByText(/^Seen/)).toBeTruthy();
  });
});
