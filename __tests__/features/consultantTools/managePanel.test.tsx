/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The consultant's tools (src/features/consultantTools/ManagePanel.tsx and a file per tab): the forms check with core's rules
// (core/offers.ts, core/invitations.ts, core/expiry.ts, core/email.ts) before anything is sent, and send exactly
// what the person typed once it passes.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { LIMITS } from '@core/limits';
import { ManagePanel } from '@/features/consultantTools/ManagePanel';
import { membersLoaded } from '@/store/membersSlice';
import { invitationLink } from '@/features/consultantTools/ShareLink';
import { channelInvitationsRequested, invitationCreateRequested } from '@/store/invitationsSlice';
import { offerIssueRequested } from '@/store/offersSlice';
import { removalNoticeFailed, removalNoticeRequested } from '@/store/housekeepingSlice';
import { practiceLoaded } from '@/store/practiceSlice';
import { accountLoaded, fallbackUserState, signedIn } from '@/store/userSlice';
import type { PracticeData } from '@/store/practiceSlice';
import { recordActions } from '../../support/recordingStore';
import { studioChannel } from '../../support/studioChannel';

const OWNER = 'uidOwner000000000001';
const MEMBER = 'uidMember00000000001';
const channel = studioChannel({ ownerId: OWNER, members: [MEMBER] });
const DAY = 24 * 60 * 60 * 1000;
const NOW = 1_767_225_600_000;

function renderPanel() {
  const { store, seen } = recordActions();
  render(
    <Provider store={store}>
      <ManagePanel channel={channel} />
    </Provider>,
  );
  return { store, seen };
}

const field = (label: RegExp, value: string): void => {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
};

beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
afterEach(cleanup);

describe('the invite tab', () => {
  const open = () => {
    const rendered = renderPanel();
    fireEvent.click(screen.getByRole('tab', { name: 'Invite' }));
    return rendered;
  };
  const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create invitation' }));

  it('asks for the channel’s invitations when it opens', () => {
    const { seen } = open();
    expect(seen.map((a) => a.type)).toContain(channelInvitationsRequested.type);
  });

  it.each([
    ['an email of the wrong shape', /their email/i, 'ann@example', 'Enter an email like name@example.com'],
    ['more passes than one invitation grants', /passes/i, '1001', 'whole numbers from 0 to 1000'],
    ['credits as a fraction', /credits/i, '2.5', 'whole numbers from 0 to 1000'],
    ['a validity of 366 days', /valid for/i, '366', 'An invitation lasts 1 to 365 days.'],
    ['a validity of 0 days', /valid for/i, '0', 'An invitation lasts 1 to 365 days.'],
  ])('refuses %s before sending anything', (_label, label, value, words) => {
    const { seen } = open();
    field(label, value);
    submit();
    expect(screen.getByRole('alert').textContent).toContain(words);
    expect(seen.map((a) => a.type)).not.toContain(invitationCreateRequested.type);
  });

  it('sends the invitation at the limits: 1,000 passes, 0 credits, 365 days, bound to the email', () => {
    const { seen } = open();
    field(/their email/i, ' ann@example.com ');
    field(/passes/i, String(LIMITS.invitationGrantMax));
    field(/credits/i, '0');
    field(/valid for/i, '365');
    submit();
    expect(seen.find((a) => a.type === invitationCreateRequested.type)?.payload).toEqual({
      channelId: channel.id,
      inviteeEmail: 'ann@example.com',
      passes: 1000,
      credits: 0,
      expiresAt: NOW + 365 * DAY,
    });
  });
});

describe('the members tab', () => {
  const practice = (services: PracticeData['services']): PracticeData => ({
    services,
    hours: {},
    bookings: { upcoming: [], past: [] },
    ledger: { entries: [], balance: { credits: 0, passes: 0 } },
    earnings: null,
    offers: [],
  });
  const strategy = {
    id: 'serv0000000000000001',
    consultantId: OWNER,
    title: 'Strategy session',
    description: '',
    durationMinutes: 60,
    priceCredits: 3,
    status: 'active' as const,
    createdAt: 1,
    updatedAt: 1,
  };
  const open = (services: PracticeData['services'] = [strategy]) => {
    const rendered = renderPanel();
    fireEvent.click(screen.getByRole('tab', { name: 'Members' }));
    act(() => {
      const authUser = { uid: OWNER, email: 'dana@example.com', displayName: 'Dana' };
      rendered.store.dispatch(signedIn({ authUser }));
      rendered.store.dispatch(accountLoaded({ ...fallbackUserState(authUser), isConsultant: true }));
      rendered.store.dispatch(practiceLoaded(practice(services)));
      rendered.store.dispatch(
        membersLoaded({
          channelId: channel.id,
          items: [
            { uid: OWNER, name: 'Dana', role: 'owner', joinedAt: 1 },
            { uid: MEMBER, name: 'Sam', role: 'member', joinedAt: 2 },
          ],
        }),
      );
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send offer to Sam' }));
    return rendered;
  };
  const form = () => within(screen.getByRole('form', { name: 'Offer for Sam' }));

  it.each([
    ['0 %', '0', '7', 'A discount is a whole percent from 1 to 100.'],
    ['101 %', '101', '7', 'A discount is a whole percent from 1 to 100.'],
    ['366 days', '10', '366', 'An offer lasts 1 to 365 days.'],
  ])('refuses %s before sending anything', (_label, discount, days, words) => {
    const { seen } = open();
    fireEvent.change(form().getByLabelText(/discount/i), { target: { value: discount } });
    fireEvent.change(form().getByLabelText(/valid for/i), { target: { value: days } });
    fireEvent.click(form().getByRole('button', { name: 'Send offer to Sam' }));
    expect(form().getByRole('alert').textContent).toBe(words);
    expect(seen.map((a) => a.type)).not.toContain(offerIssueRequested.type);
  });

  it('sends 100 % for 365 days', () => {
    const { seen } = open();
    fireEvent.change(form().getByLabelText(/discount/i), { target: { value: '100' } });
    fireEvent.change(form().getByLabelText(/valid for/i), { target: { value: '365' } });
    fireEvent.click(form().getByRole('button', { name: 'Send offer to Sam' }));
    expect(seen.find((a) => a.type === offerIssueRequested.type)?.payload).toEqual({
      channelId: channel.id,
      userId: MEMBER,
      serviceId: 'serv0000000000000001',
      discountPercent: 100,
      source: 'Strategy session',
      expiresAt: NOW + 365 * DAY,
    });
  });

  it('sends nothing while the consultant offers no service, and says where to make one', () => {
    const { seen } = open([]);
    expect(form().getByText('You offer no service yet: create one on Services first.')).toBeTruthy();
    fireEvent.click(form().getByRole('button', { name: 'Send offer to Sam' }));
    expect(form().getByRole('alert').textContent).toBe(
      'Offer a service on Services first: an offer is for one of them.',
    );
    expect(seen.map((a) => a.type)).not.toContain(offerIssueRequested.type);
  });
});

describe('invitationLink', () => {
  it('is the invitation’s page on this origin', () => {
    expect(invitationLink('AbCdEfGhIj0123456789', 'https://qupm.example')).toBe(
      'https://qupm.example/invite/AbCdEfGhIj0123456789',
    );
  });
});

describe('the channel tab', () => {
  it('says why the removal notice could not be read, and reads it again on Try again', () => {
    const { store, seen } = renderPanel();
    fireEvent.click(screen.getByRole('tab', { name: 'Channel' }));
    act(() => {
      store.dispatch(removalNoticeFailed({ channelId: channel.id, message: 'Can’t reach QuPM right now.' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('Can’t reach QuPM right now.');
    const asked = () => seen.filter((a) => removalNoticeRequested.match(a)).length;
    const before = asked();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(asked()).toBe(before + 1);
  });
});
