/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The bubble's Edit and Delete as a person meets them: offered only when core/messageEdits.ts
// allows, with names unique in the list; the inline editor (Enter saves, Escape cancels, an empty text refused in
// words); a deletion asked for only after its confirmation; "edited" and the tombstone.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MessageItem } from '@/features/conversation/MessageItem';
import { overviewLoaded } from '@/store/channelsSlice';
import { signedIn } from '@/store/userSlice';
import { messageChangeFailed } from '@/features/conversation/messageActionsSlice';
import type { ChatMessage } from '@core/model';
import { recordActions } from '../../support/recordingStore';
import { STUDIO_ID, studioChannel } from '../../support/studioChannel';

const A = STUDIO_ID;
const OWNER = 'uidOwner000000000001';
const MEMBER = 'uidMember00000000001';
const DAY = 24 * 60 * 60 * 1000;
const SENT = Date.UTC(2026, 0, 15, 10, 42);
const channel = studioChannel({ ownerId: OWNER, description: '', members: [MEMBER] });
const message = (senderId: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'm1000000000000000001',
  channelId: A,
  senderId,
  senderName: senderId === OWNER ? 'Dana' : 'Morgan',
  text: 'See you on Tusday',
  createdAt: SENT,
  ...extra,
});

afterEach(cleanup);

function renderAs(uid: string, shown: ChatMessage, now = SENT + 60_000) {
  const { store, seen, dispatch } = recordActions();
  dispatch(signedIn({ authUser: { uid, email: 'x@example.com', displayName: null } }));
  dispatch(overviewLoaded({ items: [{ channel, lastMessage: null, unread: 0 }] }));
  const view = render(
    <Provider store={store}>
      <ol>
        <MessageItem message={shown} own={shown.senderId === uid} now={now} />
      </ol>
    </Provider>,
  );
  return { store, seen, view, types: () => seen.map((a) => a.type) };
}

describe('the actions a bubble offers', () => {
  it('offers its sender Edit and Delete, named by whose message, when and how it starts', () => {
    renderAs(MEMBER, message(MEMBER));
    expect(
      screen.getByRole('button', { name: /^Edit your message from .*, “See you on Tusday”$/ }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Delete your message from / })).toBeTruthy();
  });

  it('offers no Edit once 24 hours have passed, still Delete', () => {
    renderAs(MEMBER, message(MEMBER), SENT + DAY);
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.getByRole('button', { name: /^Delete your message/ })).toBeTruthy();
  });

  it("offers a member no Edit or Delete on someone else's message (only Reply and React)", () => {
    renderAs(MEMBER, message(OWNER));
    expect(screen.queryAllByRole('button').map((button) => button.textContent)).toEqual(['Reply', 'React']);
  });

  it("offers the channel's owner Delete, not Edit, on a member's message", () => {
    renderAs(OWNER, message(MEMBER));
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.getByRole('button', { name: /^Delete Morgan’s message from / })).toBeTruthy();
  });

  it('shows a deleted message as a tombstone with nothing to do, and an edited one as edited', () => {
    const { view } = renderAs(MEMBER, message(MEMBER, { text: '', deleted: true, updatedAt: SENT + 5 }));
    expect(screen.getByText('Message deleted')).toBeTruthy();
    expect(screen.queryAllByRole('button')).toEqual([]);
    view.unmount();
    renderAs(
      MEMBER,
      message(MEMBER, { text: 'See you on Tuesday', editedAt: SENT + 5, updatedAt: SENT + 5 }),
    );
    expect(screen.getByText('(edited)')).toBeTruthy();
  });
});

describe('editing in the bubble', () => {
  const field = () =>
    screen.getByRole('textbox', { name: 'Edit your message (Enter saves, Escape cancels)' });

  it('saves with Enter: asks for the edit with the new text', () => {
    const { seen } = renderAs(MEMBER, message(MEMBER));
    fireEvent.click(screen.getByRole('button', { name: /^Edit your message/ }));
    fireEvent.change(field(), { target: { value: 'See you on Tuesday' } });
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(seen.at(-1)).toEqual({
      type: 'messageActions/messageEditRequested',
      payload: { channelId: A, messageId: message(MEMBER).id, text: 'See you on Tuesday' },
    });
  });

  it('leaves with Escape, asking for nothing', () => {
    const { types } = renderAs(MEMBER, message(MEMBER));
    fireEvent.click(screen.getByRole('button', { name: /^Edit your message/ }));
    fireEvent.change(field(), { target: { value: 'Something else' } });
    fireEvent.keyDown(field(), { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('See you on Tusday')).toBeTruthy();
    expect(types()).not.toContain('messageActions/messageEditRequested');
  });

  it('refuses an empty text in words, asking for nothing', () => {
    const { types } = renderAs(MEMBER, message(MEMBER));
    fireEvent.click(screen.getByRole('button', { name: /^Edit your message/ }));
    fireEvent.change(field(), { target: { value: '   ' } });
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Write something, or delete the message instead.');
    expect(types()).not.toContain('messageActions/messageEditRequested');
  });

  it('shows the backend’s refusal in the open editor', () => {
    const { store } = renderAs(MEMBER, message(MEMBER));
    fireEvent.click(screen.getByRole('button', { name: /^Edit your message/ }));
    fireEvent.keyDown(field(), { key: 'Enter', shiftKey: true });
    fireEvent.change(field(), { target: { value: 'See you on Tuesday' } });
    fireEvent.submit(field().closest('form') as HTMLFormElement);
    const refusal = 'A message can only be edited in the first 24 hours after it was sent.';
    act(() => {
      store.dispatch(messageChangeFailed({ messageId: message(MEMBER).id, kind: 'edit', message: refusal }));
    });
    expect(screen.getByRole('alert').textContent).toBe(refusal);
  });
});

describe('deleting', () => {
  it('asks first, and asks for the deletion only once confirmed', () => {
    const { seen, types } = renderAs(MEMBER, message(MEMBER));
    fireEvent.click(screen.getByRole('button', { name: /^Delete your message/ }));
    expect(types()).not.toContain('messageActions/messageDeleteRequested');
    expect(screen.getByRole('group', { name: /^Delete your message from .*\?$/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    expect(screen.queryByRole('group')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Delete your message/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(seen.at(-1)).toEqual({
      type: 'messageActions/messageDeleteRequested',
      payload: { channelId: A, messageId: message(MEMBER).id },
    });
  });
});
