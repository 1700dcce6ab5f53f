/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// /invite/:id and /activate/:id on their one frame (src/ui/InvitationFrame.tsx): the same checks, sign-in,
// loading and failure screens, each route with its own words and its own step.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Invitation } from '@core/model';
import { Component as ActivateRoute } from '@/features/activate/route';
import { Component as InviteRoute } from '@/features/invite/route';
import { createAppStore } from '@/app/store';
import {
  activateRequested,
  activated,
  invitationFailed,
  invitationLoaded,
  invitationRequested,
  previewLoaded,
  previewRequested,
} from '@/store/invitationsSlice';
import type { InvitationPreview } from '@core/invitations';
import { accountLoaded, initialState as userInitial, signedIn } from '@/store/userSlice';
import { recordActionTypes } from '../support/recordingStore';

const ID = 'AbCdEfGhIj0123456789';
const ME = 'uidMe000000000000001';
const invitation = (over: Partial<Invitation> = {}): Invitation => ({
  id: ID,
  channelId: 'chanA000000000000001',
  channelTitle: 'Growth Clinic',
  consultantId: 'uidDana0000000000001',
  consultantName: 'Dana',
  status: 'pending',
  passes: 2,
  credits: 0,
  expiresAt: 4_000_000_000_000,
  ...over,
});

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(path: string, signedInAs: string | null) {
  const store = createAppStore({
    preloadedState: { user: { ...userInitial, status: signedInAs ? 'unknown' : 'signedOut' } },
  });
  if (signedInAs) {
    const authUser = { uid: signedInAs, email: 'me@example.com', displayName: null };
    store.dispatch(signedIn({ authUser }));
    store.dispatch(
      accountLoaded({
        authUser,
        isConsultant: false,
        effectiveConId: '',
        isAdmin: false,
        nickname: '',
        credits: 0,
        passCount: 0,
        domainId: undefined,
        userDocExists: true,
        notificationSettings: null,
      }),
    );
  }
  const { seen, dispatch } = recordActionTypes(store);
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/invite/:invitationId" element={<InviteRoute />} />
          <Route path="/activate/:invitationId" element={<ActivateRoute />} />
          <Route path="/" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return { store: { ...store, dispatch }, seen };
}

/** The screen's own title (a sign-in screen also holds the form's). */
const heading = (): string => screen.getAllByRole('heading', { level: 1 })[0]?.textContent ?? '';

const preview = (over: Partial<InvitationPreview> = {}): InvitationPreview => ({
  id: ID,
  consultantName: 'Dana',
  channelTitle: 'Growth Clinic',
  passes: 2,
  credits: 3,
  expiresAt: 4_000_000_000_000,
  state: 'open',
  forOneEmail: true,
  ...over,
});

describe('/invite signed out: the invitation’s public preview (issue #13 part 8)', () => {
  it('says who invites to what and what it grants, and opens on Create account with Sign in one click away', () => {
    const { store, seen } = renderAt(`/invite/${ID}`, null);
    expect(seen).toContain(previewRequested.type);
    expect(seen).not.toContain(invitationRequested.type);
    act(() => {
      store.dispatch(previewLoaded({ preview: preview() }));
    });
    expect(heading()).toBe('Dana invites you to Growth Clinic');
    expect(document.querySelector('.invitation-facts')?.textContent).toContain(
      '2 channel passes and 3 credits',
    );
    expect(screen.getByRole('tab', { name: 'Create account' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Sign in' }));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('says a used invitation was used, with sign-in for whoever accepted it', () => {
    const { store } = renderAt(`/invite/${ID}`, null);
    act(() => {
      store.dispatch(previewLoaded({ preview: preview({ state: 'used' }) }));
    });
    expect(heading()).toBe('This invitation has already been used');
    expect(document.body.textContent).not.toMatch(/another account/);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('says an expired invitation expired', () => {
    const { store } = renderAt(`/invite/${ID}`, null);
    act(() => {
      store.dispatch(previewLoaded({ preview: preview({ state: 'expired' }) }));
    });
    expect(heading()).toBe('This invitation has expired');
  });
});

describe.each(['/invite', '/activate'])('%s', (route) => {
  it('refuses an id of the wrong shape without asking for anything', () => {
    const { seen } = renderAt(`${route}/not-an-id`, ME);
    expect(heading()).toBe('This invitation link is not valid');
    expect(seen).not.toContain(invitationRequested.type);
  });

  it('asks for the invitation and shows it loading, then its problem with Try again', () => {
    const { store, seen } = renderAt(`${route}/${ID}`, ME);
    expect(seen.filter((type) => type === invitationRequested.type)).toHaveLength(1);
    expect(screen.getByText('Loading QuPM...')).toBeTruthy();
    act(() => {
      store.dispatch(invitationFailed({ id: ID, error: { status: 'UNAVAILABLE', message: 'offline' } }));
    });
    expect(heading()).toBe("The invitation couldn't be loaded");
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(seen.filter((type) => type === invitationRequested.type)).toHaveLength(2);
  });

  it('says an expired invitation has expired', () => {
    const { store } = renderAt(`${route}/${ID}`, ME);
    act(() => {
      store.dispatch(invitationLoaded({ invitation: invitation({ status: 'expired' }) }));
    });
    expect(heading()).toBe('This invitation has expired');
  });
});

describe('each route’s own step', () => {
  it('/activate lets a signed-out visitor sign in on the same route', () => {
    const { seen } = renderAt(`/activate/${ID}`, null);
    expect(heading()).toBe('Activate your invitation');
    expect(screen.getByRole('heading', { name: 'Sign in to continue' })).toBeTruthy();
    expect(seen).not.toContain(invitationRequested.type);
  });

  it('/invite offers to accept a pending invitation', () => {
    const { store } = renderAt(`/invite/${ID}`, ME);
    act(() => {
      store.dispatch(invitationLoaded({ invitation: invitation() }));
    });
    expect(heading()).toBe('Dana invites you to Growth Clinic');
    expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeTruthy();
  });

  it('/invite activates an accepted invitation in one click and lands the person in the channel', () => {
    const { store, seen } = renderAt(`/invite/${ID}`, ME);
    const accepted = invitation({ status: 'accepted', acceptedBy: ME });
    act(() => {
      store.dispatch(invitationLoaded({ invitation: accepted }));
    });
    expect(heading()).toBe('You joined Growth Clinic');
    expect(screen.getByRole('link', { name: 'Activation details' }).getAttribute('href')).toBe(
      `/activate/${ID}`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Activate and open the channel' }));
    expect(seen).toContain(activateRequested.type);
    act(() => {
      store.dispatch(activated({ invitation: { ...accepted, status: 'activated' } }));
    });
    expect(screen.getByTestId('where').textContent).toBe('/?channel=chanA000000000000001');
  });

  it('/invite tells someone else that an invitation already used was used, not that it is another account’s', () => {
    const { store } = renderAt(`/invite/${ID}`, ME);
    act(() => {
      store.dispatch(
        invitationFailed({
          id: ID,
          error: { status: 'FAILED_PRECONDITION', message: 'used', reason: 'invitation-used' },
        }),
      );
    });
    expect(heading()).toBe('This invitation has already been used');
  });

  it('/activate sends a pending invitation back to be accepted first', () => {
    const { store } = renderAt(`/activate/${ID}`, ME);
    act(() => {
      store.dispatch(invitationLoaded({ invitation: invitation() }));
    });
    expect(heading()).toBe('Accept the invitation first');
    expect(screen.getByRole('link', { name: 'Open the invitation' }).getAttribute('href')).toBe(
      `/invite/${ID}`,
    );
  });

  it('/activate activates an accepted invitation and shows what it granted', () => {
    const { store } = renderAt(`/activate/${ID}`, ME);
    const accepted = invitation({ status: 'accepted', acceptedBy: ME });
    act(() => {
      store.dispatch(invitationLoaded({ invitation: accepted }));
    });
    expect(heading()).toBe('Activate your invitation to Growth Clinic');
    act(() => {
      store.dispatch(activateRequested({ id: ID }));
      store.dispatch(activated({ invitation: { ...accepted, status: 'activated' } }));
    });
    expect(heading()).toBe('You received 2 channel passes');
    expect(screen.getByRole('link', { name: 'Open the channel' }).getAttribute('href')).toBe(
      '/?channel=chanA000000000000001',
    );
  });
});
