/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// Private consultations on screen: a client's "Talk privately with Dana" in an ordinary channel,
// the consultation's header (the other person's name, no Manage), its entry in the channel list, and the screen
// opening the consultation the backend answered.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Conversation } from '@/features/conversation/Conversation';
import { ChannelList } from '@/features/channels/ChannelList';
import {
  membersLoaded,
  privateChannelOpened,
  privateChannelRequested,
  selectPrivateChat,
} from '@/store/membersSlice';
import { overviewLoaded, permissionsLoaded } from '@/store/channelsSlice';
import { messagesLoaded } from '@/store/conversationSlice';
import { signedIn } from '@/store/userSlice';
import type { Channel } from '@core/model';
import { HOUSEKEEPING_MESSAGES } from '@core/housekeeping';
import { FORMER_MEMBER_NAME, privateChannelAfterOwnerLeft } from '@core/leaving';
import { recordActions } from '../../support/recordingStore';

const ME = 'MorganUid00000000001';
const DANA = 'DanaUid0000000000001';
const studio: Channel = {
  id: 'ChannelStudio0000001',
  channelId: 'strategy-studio',
  ownerId: DANA,
  title: 'Strategy Studio',
  description: 'Plans',
  members: [ME],
  createdAt: 1,
};
const consultation: Channel = {
  id: 'PrivateChannel000001',
  channelId: 'private-privatechannel000001',
  ownerId: DANA,
  title: 'Dana and Morgan',
  description: '',
  members: [ME],
  createdAt: 2,
  kind: 'private',
  names: { [DANA]: 'Dana', [ME]: 'Morgan' },
};

afterEach(cleanup);

function Where() {
  return <p data-testid="where">{useLocation().search}</p>;
}

function setup(open: Channel) {
  const { store, seen, dispatch } = recordActions();
  dispatch(signedIn({ authUser: { uid: ME, email: 'morgan@example.com', displayName: 'Morgan' } }));
  dispatch(
    overviewLoaded({
      items: [
        // The consultation as the test opens it (it may have changed), else as it began.
        { channel: open.id === consultation.id ? open : consultation, lastMessage: null, unread: 0 },
        { channel: studio, lastMessage: null, unread: 0 },
      ],
    }),
  );
  dispatch(messagesLoaded({ channelId: open.id, messages: [] }));
  dispatch(
    permissionsLoaded({ channelId: open.id, result: { permissions: { canMessage: true, isOwner: false } } }),
  );
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[`/?channel=${open.id}`]}>
        <Routes>
          <Route
            path="/"
            element={
              <>
                <ChannelList openId={open.id} />
                <Conversation channelId={open.id} />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return { store, seen };
}

/** The channel's menu, from the header: it holds the description, "Talk privately", mute, manage and members. */
const openMenu = () => fireEvent.click(screen.getByRole('button', { name: 'Channel menu' }));

describe('a client in their consultant’s channel', () => {
  it('offers "Talk privately with Dana" once the channel’s people are known, and asks for it', () => {
    const { store, seen } = setup(studio);
    openMenu();
    expect(screen.getByRole('button', { name: 'Talk privately with your consultant' })).toBeTruthy();
    act(() => {
      store.dispatch(
        membersLoaded({
          channelId: studio.id,
          items: [
            { uid: DANA, name: 'Dana', role: 'owner', joinedAt: 1 },
            { uid: ME, name: 'Morgan', role: 'member', joinedAt: 2 },
          ],
        }),
      );
    });
    fireEvent.click(screen.getByRole('button', { name: 'Talk privately with Dana' }));
    expect(seen).toContainEqual(privateChannelRequested({ withUid: DANA, viaChannelId: studio.id }));
    expect(screen.getByRole('button', { name: 'Opening…' })).toHaveProperty('disabled', true);
  });

  it('opens the consultation the backend answered', () => {
    const { store } = setup(studio);
    openMenu();
    act(() => {
      store.dispatch(privateChannelRequested({ withUid: DANA, viaChannelId: studio.id }));
      store.dispatch(privateChannelOpened({ channelId: consultation.id }));
    });
    expect(screen.getByTestId('where').textContent).toBe(`?channel=${consultation.id}`);
    expect(selectPrivateChat(store.getState()).status).toBe('idle');
  });
});

describe('the consultation itself', () => {
  it('is headed and listed with the other person’s name, private, with nothing to manage', () => {
    setup(consultation);
    expect(screen.getByRole('heading', { level: 1, name: 'Dana' })).toBeTruthy();
    openMenu();
    expect(screen.getByText('Private conversation: only the two of you can read it.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Talk privately/ })).toBeNull();
    const titles = [...document.querySelectorAll('.channel-link__title')].map((t) => t.textContent);
    expect(titles).toEqual(['Dana · private', 'Strategy Studio']);
    expect(screen.queryByText('Dana and Morgan')).toBeNull();
  });

  it('says the consultant has left, and takes nothing new, once they deleted their account', () => {
    setup({ ...consultation, ...privateChannelAfterOwnerLeft(consultation.names ?? {}, ME, 5) });
    expect(screen.getByRole('heading', { level: 1, name: FORMER_MEMBER_NAME })).toBeTruthy();
    expect(screen.getByText(HOUSEKEEPING_MESSAGES.consultantLeft)).toBeTruthy();
    expect(screen.queryByText(HOUSEKEEPING_MESSAGES.archived)).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('heading', { level: 1, name: 'Dana' })).toBeNull();
  });
});
