/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The mute control in the conversation's header and the muted mark in the channel list: the
// choices ask the store for a mute, the header and the list say until when, Unmute appears only when muted, and a
// refusal shows in the person’s words. Every choice has its own accessible name. The list says it is loading only
// while it has nothing to show (channels kept on the device show instead).
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { MUTE_MESSAGES, MUTED_FOREVER } from '@core/mutes';
import { channelChanged, overviewLoaded, overviewRequested } from '@/store/channelsSlice';
import { muteFailed, muteSaved } from '@/store/mutesSlice';
import { MuteControl } from '@/features/conversation/MuteControl';
import { ChannelList } from '@/features/channels/ChannelList';
import { recordActions } from '../../support/recordingStore';
import { STUDIO_ID, studioChannel } from '../../support/studioChannel';

const A = STUDIO_ID;
const channel = studioChannel();

afterEach(cleanup);

function renderWith(node: React.ReactNode) {
  const { store, seen, dispatch } = recordActions();
  dispatch(overviewLoaded({ items: [{ channel, lastMessage: null, unread: 4 }] }));
  render(
    <Provider store={store}>
      <MemoryRouter>{node}</MemoryRouter>
    </Provider>,
  );
  return { store, seen };
}

describe('MuteControl', () => {
  it('offers 1 hour, 8 hours and until turned back on, and asks the store for the one chosen', () => {
    const { seen } = renderWith(<MuteControl channelId={A} />);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    const choices = within(screen.getByRole('group', { name: 'Mute this channel' }));
    expect(choices.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Mute for 1 hour',
      'Mute for 8 hours',
      'Mute until I turn it back on',
    ]);
    fireEvent.click(choices.getByRole('button', { name: 'Mute for 8 hours' }));
    expect(seen.at(-1)).toEqual({ type: 'mutes/muteRequested', payload: { channelId: A, duration: '8h' } });
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.getByRole('button', { name: 'Saving…' })).toHaveProperty('disabled', true);
  });

  it('says it is muted, offers Unmute, and closes with Escape', () => {
    const { store, seen } = renderWith(<MuteControl channelId={A} />);
    act(() => {
      store.dispatch(muteSaved({ channelId: A, mutedUntil: MUTED_FOREVER }));
    });
    const toggle = screen.getByRole('button', { name: 'Muted' });
    fireEvent.click(toggle);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Unmute' }), { key: 'Escape' });
    expect(screen.queryByRole('group')).toBeNull();
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(seen.at(-1)).toEqual({ type: 'mutes/unmuteRequested', payload: { channelId: A } });
  });

  it('shows a refusal in words for a person', () => {
    const { store } = renderWith(<MuteControl channelId={A} />);
    act(() => {
      store.dispatch(muteFailed({ channelId: A, message: MUTE_MESSAGES.notInChannel }));
    });
    expect(screen.getByRole('alert').textContent).toBe(MUTE_MESSAGES.notInChannel);
  });
});

describe('the channel list', () => {
  it("still shows a muted channel's unread count, with its muted mark", () => {
    const { store } = renderWith(<ChannelList openId={null} />);
    const link = () => screen.getByRole('link', { name: /Strategy Studio/ });
    expect(link().textContent).not.toMatch(/Muted/);
    act(() => {
      store.dispatch(muteSaved({ channelId: A, mutedUntil: MUTED_FOREVER }));
    });
    expect(link().textContent).toMatch(/Muted/);
    expect(within(link()).getByLabelText('4 unread').className).toMatch(/unread--muted/);
  });

  it('says it is loading only while it has no channel to show', () => {
    const { store, dispatch } = recordActions();
    dispatch(overviewRequested());
    render(
      <Provider store={store}>
        <MemoryRouter>
          <ChannelList openId={null} />
        </MemoryRouter>
      </Provider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading your channels…');
    act(() => {
      store.dispatch(channelChanged({ channel }));
    });
    expect(screen.getByRole('link', { name: /Strategy Studio/ })).toBeTruthy();
    expect(screen.queryByText('Loading your channels…')).toBeNull();
  });

  it('says until when a timed mute lasts', () => {
    const { store } = renderWith(<ChannelList openId={null} />);
    const until = Date.now() + 60 * 60 * 1000;
    act(() => {
      store.dispatch(muteSaved({ channelId: A, mutedUntil: until }));
    });
    expect(screen.getByRole('link', { name: /Strategy Studio/ }).textContent).toMatch(/Muted until .*\d{2}/);
  });
});
