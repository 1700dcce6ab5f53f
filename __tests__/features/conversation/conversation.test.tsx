/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { VirtuosoMockContext } from 'react-virtuoso';
import { createAppStore } from '@/app/store';
import { Conversation } from '@/features/conversation/Conversation';
import { checkMessage } from '@/features/conversation/Composer';
import { messagesLoaded } from '@/store/conversationSlice';
import { suggestHandle, checkNewChannel } from '@/features/consultantTools/NewChannelForm';
import { readWholeNumber } from '@/features/consultantTools/formNumbers';
import { ManagePanel } from '@/features/consultantTools/ManagePanel';
import { isDiscountPercent } from '@core/offers';
import { channelOpened, overviewLoaded, permissionsLoaded } from '@/store/channelsSlice';
import type { ChatMessage } from '@core/model';
import { messagesArrived } from '@/store/messages';
import { continuesGroup } from '@/features/conversation/messageRows';
import type * as MessageRows from '@/features/conversation/messageRows';
import { DroppedNotice } from '@/ui/LiveNotices';
import {
  conversationsRestored,
  messageAcknowledged,
  outboxSendPostponed,
  outboxSendRefused,
  selectOutboxEntries,
} from '@/store/outboxSlice';
import { signedIn } from '@/store/userSlice';
import { recordActionTypes } from '../../support/recordingStore';
import { STUDIO_ID, studioChannel } from '../../support/studioChannel';

// Not a mock: the real grouping rule, watched, so a test can tell which rows were drawn (each row asks it).
jest.mock('@/features/conversation/messageRows', () => {
  const actual: typeof MessageRows = jest.requireActual('@/features/conversation/messageRows');
  return { ...actual, continuesGroup: jest.fn(actual.continuesGroup) };
});

const A = STUDIO_ID;
const channel = studioChannel();

function renderConversation(
  permissions: { canMessage: boolean; isOwner: boolean },
  store = createAppStore(),
) {
  const { seen, dispatch } = recordActionTypes(store);
  dispatch(overviewLoaded({ items: [{ channel, lastMessage: null, unread: 0 }] }));
  dispatch(messagesLoaded({ channelId: A, messages: [] }));
  dispatch(permissionsLoaded({ channelId: A, result: { permissions } }));
  showConversation(store);
  return seen;
}

/** Renders channel A's conversation over `store`. */
function showConversation(store: ReturnType<typeof createAppStore>) {
  // jsdom lays nothing out: the list is told its viewport's and rows' sizes, as react-virtuoso documents for tests.
  render(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 60 }}>
      <Provider store={store}>
        <MemoryRouter>
          <Conversation channelId={A} ManagePanel={ManagePanel} />
        </MemoryRouter>
      </Provider>
    </VirtuosoMockContext.Provider>,
  );
}

const sent = (id: string, text: string): ChatMessage => ({
  id,
  channelId: A,
  senderId: ME,
  senderName: 'Me',
  text,
  createdAt: 5_000,
});
const ME = 'uidMember00000000001';

function signedInStore() {
  const store = createAppStore();
  store.dispatch(signedIn({ authUser: { uid: ME, email: 'me@example.com', displayName: 'Me' } }));
  return store;
}

describe('Conversation', () => {
  it('shows the service banner and disables the composer for someone who can neither message nor own it', () => {
    renderConversation({ canMessage: false, isOwner: false });
    // One clear message: the banner, not the banner above the refused read's own words.
    expect(screen.getByRole('status').textContent).toMatch(/^You are not a member of this channel\./);
    expect(document.body.textContent?.match(/not a member of this channel/g)).toHaveLength(1);
    expect(screen.queryByText(/You can read this channel/)).toBeNull();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lets a member write, refuses an empty message before sending, and sends on Enter', () => {
    const seen = renderConversation({ canMessage: true, isOwner: false });
    expect(screen.queryByText('You are not a member of this channel.')).toBeNull();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert').textContent).toBe('Write a message or attach a file first.');
    expect(seen).not.toContain('outbox/messageSendRequested');
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello' } });
    act(() => {
      fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter' });
    });
    expect(seen).toContain('outbox/messageSendRequested');
  });

  it('offers the owner the manage panel the route hands in', async () => {
    renderConversation({ canMessage: true, isOwner: true });
    fireEvent.click(screen.getByRole('button', { name: 'Channel menu' }));
    fireEvent.click(screen.getByRole('button', { name: 'Manage' }));
    expect(await screen.findByRole('tab', { name: 'Invite' })).toBeTruthy();
  });

  it('offers no manage panel to a member', () => {
    renderConversation({ canMessage: true, isOwner: false });
    fireEvent.click(screen.getByRole('button', { name: 'Channel menu' }));
    expect(screen.getByRole('region', { name: 'Channel details' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage' })).toBeNull();
  });
});

describe('Conversation: the outbox and drafts (issue #11)', () => {
  it('shows a sent message at once as sending, and clears the box for the next one', async () => {
    const store = signedInStore();
    renderConversation({ canMessage: true, isOwner: false }, store);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: '  First question  ' } });
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
    // The list opens at its newest row once it has placed it (a tick after the first row arrives).
    expect(await screen.findByText('First question')).toBeTruthy();
    expect(screen.getByText('Sending…')).toBeTruthy();
    // The box never waits for the network: a second message can follow at once.
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
    expect(selectOutboxEntries(store.getState()).map((e) => e.text)).toEqual(['First question']);
  });

  it('says a message waits for the network, then shows it once when it is acknowledged', async () => {
    const store = signedInStore();
    renderConversation({ canMessage: true, isOwner: false }, store);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Offline words' } });
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    await screen.findByText('Offline words');
    const [entry] = selectOutboxEntries(store.getState());
    act(() => {
      store.dispatch(outboxSendPostponed({ id: entry?.id ?? '', error: 'Not sent yet.' }));
    });
    expect(screen.getByText('Waiting to send…')).toBeTruthy();
    const stored = sent(entry?.id ?? '', 'Offline words');
    act(() => {
      store.dispatch(messagesArrived({ messages: [stored], ownUid: ME }));
    });
    // In the conversation and still in the outbox for a moment: shown once.
    expect(screen.getAllByText('Offline words')).toHaveLength(1);
    act(() => {
      store.dispatch(messageAcknowledged({ message: stored }));
    });
    expect(screen.getAllByText('Offline words')).toHaveLength(1);
    expect(screen.queryByText('Waiting to send…')).toBeNull();
  });

  it('shows a refused message as "Not sent" with the reason, Retry and Delete', async () => {
    const store = signedInStore();
    renderConversation({ canMessage: true, isOwner: false }, store);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Refused words' } });
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    await screen.findByText('Refused words');
    const id = selectOutboxEntries(store.getState())[0]?.id ?? '';
    act(() => {
      store.dispatch(outboxSendRefused({ id, error: 'You are not a member of this channel.' }));
    });
    expect(screen.getByText('Not sent')).toBeTruthy();
    expect(screen.getByText('You are not a member of this channel.')).toBeTruthy();
    const retry = await screen.findByRole('button', { name: /^Retry sending / });
    act(() => {
      fireEvent.click(retry);
    });
    expect(selectOutboxEntries(store.getState())[0]).toMatchObject({ status: 'queued', error: null });
    act(() => {
      store.dispatch(outboxSendRefused({ id, error: 'You are not a member of this channel.' }));
    });
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: /^Delete unsent / }));
    });
    expect(selectOutboxEntries(store.getState())).toEqual([]);
    expect(screen.queryByText('Refused words')).toBeNull();
  });

  it('keeps a draft per channel when the person goes elsewhere and comes back', () => {
    const store = signedInStore();
    renderConversation({ canMessage: true, isOwner: false }, store);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Half a thought' } });
    cleanup();
    renderConversation({ canMessage: true, isOwner: false }, store);
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Half a thought');
  });
});

describe('Conversation: the list of a long channel (issue #13)', () => {
  const OTHER = 'uidOther000000000001';
  const yesterdayNoon = new Date(new Date().setHours(0, 0, 0, 0) - 12 * 3_600_000).getTime();
  const todayStart = new Date(new Date().setHours(0, 0, 0, 0)).getTime();
  const from = (id: string, senderId: string, createdAt: number): ChatMessage => ({
    id,
    channelId: A,
    senderId,
    senderName: senderId === ME ? 'Me' : 'Olga',
    text: `Text of ${id}`,
    createdAt,
  });
  const history = [
    from('m1', OTHER, yesterdayNoon),
    from('m2', OTHER, yesterdayNoon + 60_000),
    from('m3', ME, todayStart + 1_000),
    from('m4', OTHER, todayStart + 2_000),
    from('m5', OTHER, todayStart + 3_000),
  ];

  function renderWith(unread: number) {
    const store = signedInStore();
    store.dispatch(overviewLoaded({ items: [{ channel, lastMessage: history[4] ?? null, unread }] }));
    store.dispatch(channelOpened({ id: A }));
    store.dispatch(messagesLoaded({ channelId: A, messages: history }));
    store.dispatch(
      permissionsLoaded({ channelId: A, result: { permissions: { canMessage: true, isOwner: false } } }),
    );
    showConversation(store);
    return store;
  }
  const rowOf = (text: string) => screen.getByText(text).closest('li');

  it('puts a day separator before each day, and shows a sender’s name once for a run of messages', async () => {
    renderWith(0);
    await screen.findByRole('heading', { name: 'Today' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Yesterday',
      'Today',
    ]);
    // Olga's two messages of yesterday: her name on the first only (the second's is there for screen readers).
    expect(rowOf('Text of m1')?.querySelector('.message--grouped')).toBeNull();
    expect(rowOf('Text of m2')?.querySelector('.message--grouped')).not.toBeNull();
    // Every message keeps its time, with the full date in its title.
    expect(rowOf('Text of m2')?.querySelector('time')?.getAttribute('title')).toBeTruthy();
    // Under "Yesterday" a bubble shows its clock time, not a weekday the separator already gives.
    const clock = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
    const weekday = new Intl.DateTimeFormat([], { weekday: 'short' });
    const shown = rowOf('Text of m1')?.querySelector('time')?.textContent;
    expect(shown).toBe(clock.format(yesterdayNoon));
    expect(shown).not.toBe(weekday.format(yesterdayNoon));
    // A new day starts a new group.
    expect(rowOf('Text of m4')?.querySelector('.message--grouped')).toBeNull();
    expect(screen.queryByText('New messages')).toBeNull();
  });

  it('marks the first message unread when the channel opened, and keeps the mark while more arrive', async () => {
    const store = renderWith(2);
    await screen.findByText('Text of m5');
    expect(rowOf('New messages')).toBe(rowOf('Text of m4'));
    act(() => {
      store.dispatch(messagesArrived({ messages: [from('m6', OTHER, todayStart + 4_000)], ownUid: ME }));
    });
    await screen.findByText('Text of m6');
    expect(screen.getAllByText('New messages')).toHaveLength(1);
    expect(rowOf('New messages')).toBe(rowOf('Text of m4'));
  });

  it('redraws only the new message’s row and the one before it when a message arrives', async () => {
    const store = renderWith(0);
    await screen.findByText('Text of m5');
    // Each row works out its grouping from its neighbours as it is drawn: who asks shows which rows were drawn.
    const grouping = jest.mocked(continuesGroup);
    grouping.mockClear();
    act(() => {
      store.dispatch(messagesArrived({ messages: [from('m6', OTHER, todayStart + 4_000)], ownUid: ME }));
    });
    await screen.findByText('Text of m6');
    const drawn = new Set(
      grouping.mock.calls.flatMap((args) => args.flatMap((message) => (message ? [message.id] : []))),
    );
    expect(drawn.has('m6')).toBe(true);
    expect([...drawn].filter((id) => id !== 'm5' && id !== 'm6')).toEqual(['m4']);
    // The row before still ends its group where it should: m5 and m6 are both Olga's, one group.
    expect(rowOf('Text of m6')?.querySelector('.message--grouped')).not.toBeNull();
  });
});

describe('DroppedNotice', () => {
  it('says once that something kept on this device could not be read, and goes when dismissed', () => {
    const store = signedInStore();
    store.dispatch(conversationsRestored({ outbox: [], drafts: [], readMarks: [], dropped: 2 }));
    render(
      <Provider store={store}>
        <DroppedNotice />
      </Provider>,
    );
    expect(screen.getByRole('alert').textContent).toContain(
      '2 unsent messages or drafts on this device could not be read and were removed.',
    );
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    });
    expect(screen.queryByRole('alert')).toBeNull();
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
    const percent = readWholeNumber(value);
    expect(isDiscountPercent(percent) ? percent : null).toBe(expected);
  });
});
