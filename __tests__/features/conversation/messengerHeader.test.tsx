/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The conversation as a messenger shows it: a one-line header (the channel's h1, its mute as a bell, its menu with
// the description, mute and members), bubbles under the sender's current name, and a live region that never reads
// out a message deleted since it came.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { VirtuosoMockContext } from 'react-virtuoso';
import { createAppStore } from '@/app/store';
import { Conversation } from '@/features/conversation/Conversation';
import { messagesLoaded } from '@/store/conversationSlice';
import { overviewLoaded, permissionsLoaded } from '@/store/channelsSlice';
import { membersLoaded, selectCurrentName } from '@/store/membersSlice';
import { messagesArrived } from '@/store/messages';
import { muteSaved } from '@/store/mutesSlice';
import { signedIn } from '@/store/userSlice';
import { MUTED_FOREVER } from '@core/mutes';
import type { ChatMessage } from '@core/model';
import { STUDIO_ID, STUDIO_OWNER, studioChannel } from '../../support/studioChannel';

const ME = 'uidMember00000000001';
const LEO = 'uidLeo00000000000001';

const message = (id: string, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  channelId: STUDIO_ID,
  senderId: LEO,
  senderName: 'Leo',
  text: `Text of ${id}`,
  createdAt: 1_000,
  ...overrides,
});

function show(history: ChatMessage[] = []) {
  const store = createAppStore();
  store.dispatch(signedIn({ authUser: { uid: ME, email: 'me@example.com', displayName: 'Me' } }));
  store.dispatch(
    overviewLoaded({
      items: [{ channel: studioChannel({ members: [ME, LEO] }), lastMessage: null, unread: 0 }],
    }),
  );
  store.dispatch(messagesLoaded({ channelId: STUDIO_ID, messages: history }));
  store.dispatch(
    permissionsLoaded({
      channelId: STUDIO_ID,
      result: { permissions: { canMessage: true, isOwner: false } },
    }),
  );
  render(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 60 }}>
      <Provider store={store}>
        <MemoryRouter>
          <Conversation channelId={STUDIO_ID} />
        </MemoryRouter>
      </Provider>
    </VirtuosoMockContext.Provider>,
  );
  return store;
}

const liveRegion = () => document.querySelector('[aria-live="polite"]')!;

describe('the conversation header', () => {
  it("is the channel's h1, written either way, with the description behind the menu", () => {
    show();
    const title = screen.getByRole('heading', { level: 1, name: 'Strategy Studio' });
    expect(title.getAttribute('dir')).toBe('auto');
    expect(screen.queryByText('Plans')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Channel menu' }));
    expect(screen.getByText('Plans').getAttribute('dir')).toBe('auto');
    expect(screen.getByRole('button', { name: 'Mute' })).toBeTruthy();
  });

  it('shows a mute as a bell with its words for screen readers, not as a line of its own', () => {
    const store = show();
    expect(screen.queryByTestId('header-muted')).toBeNull();
    act(() => {
      store.dispatch(muteSaved({ channelId: STUDIO_ID, mutedUntil: MUTED_FOREVER }));
    });
    expect(screen.getByTestId('header-muted').textContent).toBe('Muted');
    expect(screen.queryByRole('button', { name: /^Muted/ })).toBeNull();
  });

  it('closes the menu on Escape and gives the focus back to its button', () => {
    show();
    const toggle = screen.getByRole('button', { name: 'Channel menu' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(screen.getByRole('region', { name: 'Channel details' }), { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Channel details' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it("lists the channel's people by their current names in the menu", () => {
    const store = show();
    fireEvent.click(screen.getByRole('button', { name: 'Channel menu' }));
    act(() => {
      store.dispatch(
        membersLoaded({
          channelId: STUDIO_ID,
          items: [
            { uid: STUDIO_OWNER, name: 'Dana', role: 'owner', joinedAt: 1 },
            { uid: LEO, name: 'Leonardo', role: 'member', joinedAt: 2 },
          ],
        }),
      );
    });
    expect(screen.getByText('Members (2)')).toBeTruthy();
    expect(screen.getByText('Leonardo')).toBeTruthy();
  });
});

describe('names and the live region', () => {
  it("shows a renamed sender's old message under their current name once the channel's people are known", async () => {
    const store = show([message('m1')]);
    expect(await screen.findByText('Text of m1')).toBeTruthy();
    expect(document.querySelector('.message__sender')?.textContent).toBe('Leo');
    act(() => {
      store.dispatch(
        membersLoaded({
          channelId: STUDIO_ID,
          items: [{ uid: LEO, name: 'Leonardo', role: 'member', joinedAt: 2 }],
        }),
      );
    });
    expect(document.querySelector('.message__sender')?.textContent).toBe('Leonardo');
    expect(document.querySelector('.message__sender')?.getAttribute('dir')).toBe('auto');
    expect(selectCurrentName(store.getState(), STUDIO_ID, 'nobody')).toBeNull();
  });

  it('reads a new message out with its sender, and nothing once it is deleted', async () => {
    const store = show([message('m1')]);
    await screen.findByText('Text of m1');
    act(() => {
      store.dispatch(messagesArrived({ messages: [message('m2', { createdAt: 2_000 })], ownUid: ME }));
    });
    expect(liveRegion().textContent).toBe('Leo: Text of m2');
    act(() => {
      store.dispatch(
        messagesArrived({
          messages: [message('m2', { createdAt: 2_000, updatedAt: 3_000, text: '', deleted: true })],
          ownUid: ME,
        }),
      );
    });
    expect(liveRegion().textContent).toBe('');
  });
});
