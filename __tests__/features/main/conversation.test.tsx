/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createAppStore } from '@/store';
import { Conversation, checkMessage } from '@/features/main/Conversation';
import { messagesLoaded } from '@/features/main/conversationSlice';
import { suggestHandle, checkNewChannel } from '@/features/main/NewChannelForm';
import { wholeNumber } from '@/features/main/ManagePanel';
import { overviewLoaded, permissionsLoaded } from '@/store/channelsSlice';
import type { Channel } from '@core/model';

const A = 'chanA000000000000001';
const channel: Channel = {
  id: A,
  channelId: 'strategy',
  ownerId: 'uidOwner000000000001',
  title: 'Strategy Studio',
  description: 'Plans',
  members: [],
  createdAt: 1,
};

function renderConversation(permissions: { canMessage: boolean; isOwner: boolean }) {
  const store = createAppStore();
  const seen: string[] = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: { type: string }) => {
    seen.push(action.type);
    return dispatch(action);
  }) as typeof store.dispatch;
  dispatch(overviewLoaded({ items: [{ channel, lastMessage: null, unread: 0 }] }));
  dispatch(messagesLoaded({ channelId: A, messages: [] }));
  dispatch(permissionsLoaded({ channelId: A, result: { permissions } }));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <Conversation channelId={A} />
      </MemoryRouter>
    </Provider>,
  );
  return seen;
}

describe('Conversation', () => {
  it('shows the service banner and disables the composer for someone who can neither message nor own it', () => {
    renderConversation({ canMessage: false, isOwner: false });
    expect(screen.getByText('You can read this channel but not write in it.')).toBeTruthy();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lets a member write, refuses an empty message before sending, and sends on Enter', () => {
    const seen = renderConversation({ canMessage: true, isOwner: false });
    expect(screen.queryByText('You can read this channel but not write in it.')).toBeNull();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert').textContent).toBe('Write a message first.');
    expect(seen).not.toContain('conversation/messageSendRequested');
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello' } });
    act(() => {
      fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter' });
    });
    expect(seen).toContain('conversation/messageSendRequested');
  });

  it('offers the manage panel (loaded on demand) to the owner', async () => {
    renderConversation({ canMessage: true, isOwner: true });
    fireEvent.click(screen.getByRole('button', { name: 'Manage' }));
    expect(await screen.findByRole('tab', { name: 'Invite' })).toBeTruthy();
  });

  it('offers no manage panel to a member', () => {
    renderConversation({ canMessage: true, isOwner: false });
    expect(screen.queryByRole('button', { name: 'Manage' })).toBeNull();
  });
});

describe('input checks', () => {
  it('refuses a message over 4,000 characters with its length', () => {
    expect(checkMessage('x'.repeat(4_001))).toBe(
      'A message can be at most 4,000 characters; this one has 4,001.',
    );
    expect(checkMessage('x'.repeat(4_000))).toBeNull();
  });

  it('suggests a handle from a title and checks it', () => {
    expect(suggestHandle('Café Strategy — 2026!')).toBe('cafe-strategy-2026');
    expect(checkNewChannel('T', 'ab')).toMatch(/3 to 40 characters/);
    expect(checkNewChannel('T', 'Bad Handle')).toMatch(/lowercase letters/);
    expect(checkNewChannel('Title', 'good-one')).toBeNull();
  });

  it.each([
    ['10', 10],
    ['0', null],
    ['101', null],
    ['1.5', null],
    ['-3', null],
    ['', null],
  ])('reads %s as a whole percent from 1 to 100: %s', (value, expected) => {
    expect(wholeNumber(value, 1, 100)).toBe(expected);
  });
});
