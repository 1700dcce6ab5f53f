import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { Invitation } from '@core/model';
import reducer, {
  acceptFailed,
  acceptRequested,
  accepted,
  activateFailed,
  activateRequested,
  activated,
  channelInvitationsFailed,
  channelInvitationsLoaded,
  channelInvitationsRequested,
  initialState,
  invitationCreateDismissed,
  invitationCreateFailed,
  invitationCreateRequested,
  invitationCreated,
  invitationFailed,
  invitationLoaded,
  invitationRequested,
  previewFailed,
  previewLoaded,
  previewRequested,
  selectAcceptStep,
  selectInvitationPreview,
  selectActivateStep,
  selectChannelInvitations,
  selectInvitationCreate,
  selectViewedInvitation,
} from '@/store/invitationsSlice';
import type { InvitationsState } from '@/store/invitationsSlice';
import { signedOut } from '@/store/userSlice';

const CH = 'ChannelA000000000001';
const NOW = 1_700_000_000_000;

const invitation = (id: string, over: Partial<Invitation> = {}): Invitation => ({
  id,
  channelId: CH,
  channelTitle: 'Growth Clinic',
  consultantId: 'uidDana0000000000001',
  consultantName: 'Dana',
  status: 'pending',
  passes: 2,
  credits: 5,
  expiresAt: NOW + 86_400_000,
  ...over,
});
const expired = {
  status: 'FAILED_PRECONDITION',
  message: 'This invitation has expired.',
  reason: 'invitation-expired' as const,
};
const used = {
  status: 'FAILED_PRECONDITION',
  message: 'This invitation was already used.',
  reason: 'invitation-used' as const,
};

const at = (invitations: InvitationsState) => ({ invitations });
const viewing = (id: string) => reducer(initialState, invitationRequested({ id }));
const viewingLoaded = (inv: Invitation) => reducer(viewing(inv.id), invitationLoaded({ invitation: inv }));

describe('invitations reducer: the invitation a person looks at', () => {
  it('starts looking at nothing, with every step idle', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectViewedInvitation(at(state))).toEqual({
      id: null,
      status: 'idle',
      invitation: null,
      error: null,
    });
    expect(selectAcceptStep(at(state)).status).toBe('idle');
    expect(selectActivateStep(at(state))).toEqual({ status: 'idle', error: null, id: null, granted: null });
    expect(selectInvitationCreate(at(state)).status).toBe('idle');
  });

  it('loads the one asked for and shows it', () => {
    expect(selectViewedInvitation(at(viewing('inv1')))).toEqual({
      id: 'inv1',
      status: 'loading',
      invitation: null,
      error: null,
    });
    expect(selectViewedInvitation(at(viewingLoaded(invitation('inv1'))))).toMatchObject({
      id: 'inv1',
      status: 'loaded',
      invitation: { id: 'inv1', channelTitle: 'Growth Clinic' },
    });
  });

  it('keeps showing an invitation while it is read again', () => {
    const state = reducer(viewingLoaded(invitation('inv1')), invitationRequested({ id: 'inv1' }));
    expect(selectViewedInvitation(at(state))).toMatchObject({ status: 'loaded', invitation: { id: 'inv1' } });
  });

  it('ignores a late answer for an invitation the person has left', () => {
    const state = reducer(viewing('inv1'), invitationRequested({ id: 'inv2' }));
    expect(reducer(state, invitationLoaded({ invitation: invitation('inv1') }))).toEqual(state);
    expect(reducer(state, invitationFailed({ id: 'inv1', error: expired }))).toEqual(state);
  });

  it('keeps the reason a read failed, so the screen can say "expired"', () => {
    const state = reducer(viewing('inv1'), invitationFailed({ id: 'inv1', error: expired }));
    expect(selectViewedInvitation(at(state))).toMatchObject({
      status: 'failed',
      error: { reason: 'invitation-expired' },
    });
  });

  it('forgets what was done with one invitation when the person looks at another', () => {
    let state = reducer(viewingLoaded(invitation('inv1')), acceptRequested({ id: 'inv1' }));
    state = reducer(state, acceptFailed({ id: 'inv1', error: used }));
    state = reducer(state, activateRequested({ id: 'inv1' }));
    state = reducer(state, invitationRequested({ id: 'inv2' }));
    expect(selectAcceptStep(at(state))).toEqual({ status: 'idle', error: null, id: null });
    expect(selectActivateStep(at(state))).toEqual({ status: 'idle', error: null, id: null, granted: null });
    expect(selectViewedInvitation(at(state)).invitation).toBeNull();
  });
});

describe('invitations reducer: accept and activate', () => {
  it('accepts, showing the invitation as the backend answered it', () => {
    let state = reducer(viewingLoaded(invitation('inv1')), acceptRequested({ id: 'inv1' }));
    expect(selectAcceptStep(at(state))).toEqual({ status: 'sending', error: null, id: 'inv1' });
    state = reducer(
      state,
      accepted({ invitation: invitation('inv1', { status: 'accepted', acceptedBy: 'uidMe' }) }),
    );
    expect(selectAcceptStep(at(state))).toEqual({ status: 'done', error: null, id: 'inv1' });
    expect(selectViewedInvitation(at(state)).invitation).toMatchObject({
      status: 'accepted',
      acceptedBy: 'uidMe',
    });
  });

  it('keeps the reason of a refused accept, and clears it on the next try', () => {
    let state = reducer(viewingLoaded(invitation('inv1')), acceptRequested({ id: 'inv1' }));
    state = reducer(state, acceptFailed({ id: 'inv1', error: used }));
    expect(selectAcceptStep(at(state))).toEqual({ status: 'failed', error: used, id: 'inv1' });
    expect(selectAcceptStep(at(reducer(state, acceptRequested({ id: 'inv1' }))))).toEqual({
      status: 'sending',
      error: null,
      id: 'inv1',
    });
  });

  it('does not put an accepted invitation over another one on screen', () => {
    const state = reducer(
      viewingLoaded(invitation('inv2')),
      accepted({ invitation: invitation('inv1', { status: 'accepted' }) }),
    );
    expect(selectViewedInvitation(at(state)).invitation).toMatchObject({ id: 'inv2', status: 'pending' });
  });

  it('never lets the answer about one invitation land on the next one the person opened', () => {
    // Accepting and activating inv1, the person opens inv2 and starts on it; inv1's answers come late.
    let state = reducer(viewingLoaded(invitation('inv1')), acceptRequested({ id: 'inv1' }));
    state = reducer(state, activateRequested({ id: 'inv1' }));
    state = reducer(state, invitationRequested({ id: 'inv2' }));
    state = reducer(state, invitationLoaded({ invitation: invitation('inv2') }));
    state = reducer(state, acceptRequested({ id: 'inv2' }));
    state = reducer(state, accepted({ invitation: invitation('inv1', { status: 'accepted' }) }));
    state = reducer(state, acceptFailed({ id: 'inv1', error: used }));
    state = reducer(state, activated({ invitation: invitation('inv1', { status: 'activated', passes: 9 }) }));
    state = reducer(state, activateFailed({ id: 'inv1', error: used }));
    expect(selectAcceptStep(at(state))).toEqual({ status: 'sending', error: null, id: 'inv2' });
    expect(selectActivateStep(at(state))).toEqual({ status: 'idle', error: null, id: null, granted: null });
    // inv2's own answer lands.
    state = reducer(state, accepted({ invitation: invitation('inv2', { status: 'accepted' }) }));
    expect(selectAcceptStep(at(state)).status).toBe('done');
  });

  it('activates, keeping what was granted for the screen that says so', () => {
    let state = reducer(
      viewingLoaded(invitation('inv1', { status: 'accepted' })),
      activateRequested({ id: 'inv1' }),
    );
    expect(selectActivateStep(at(state)).status).toBe('sending');
    state = reducer(
      state,
      activated({ invitation: invitation('inv1', { status: 'activated', passes: 3, credits: 7 }) }),
    );
    expect(selectActivateStep(at(state))).toEqual({
      status: 'done',
      error: null,
      id: 'inv1',
      granted: { passes: 3, credits: 7 },
    });
    expect(selectViewedInvitation(at(state)).invitation?.status).toBe('activated');
  });

  it('says why an activation was refused, with nothing granted', () => {
    let state = reducer(viewingLoaded(invitation('inv1')), activateRequested({ id: 'inv1' }));
    state = reducer(state, activateFailed({ id: 'inv1', error: used }));
    expect(selectActivateStep(at(state))).toEqual({
      status: 'failed',
      error: used,
      id: 'inv1',
      granted: null,
    });
  });
});

describe("invitations reducer: a consultant's invitations", () => {
  it('loads a channel’s invitations and keeps them listed while they are read again', () => {
    let state = reducer(initialState, channelInvitationsRequested({ channelId: CH }));
    expect(selectChannelInvitations(at(state), CH)).toEqual({ status: 'loading', items: [], error: null });
    state = reducer(state, channelInvitationsLoaded({ channelId: CH, items: [invitation('inv1')] }));
    state = reducer(state, channelInvitationsRequested({ channelId: CH }));
    expect(selectChannelInvitations(at(state), CH)).toMatchObject({
      status: 'loaded',
      items: [{ id: 'inv1' }],
    });
    expect(selectChannelInvitations(at(state), 'ChannelOther')).toBeUndefined();
  });

  it('says why a list failed, still showing what it had', () => {
    const empty = reducer(
      reducer(initialState, channelInvitationsRequested({ channelId: CH })),
      channelInvitationsFailed({ channelId: CH, message: 'Server busy' }),
    );
    expect(selectChannelInvitations(at(empty), CH)).toEqual({
      status: 'failed',
      items: [],
      error: 'Server busy',
    });
    const some = reducer(
      reducer(initialState, channelInvitationsLoaded({ channelId: CH, items: [invitation('inv1')] })),
      channelInvitationsFailed({ channelId: CH, message: 'Server busy' }),
    );
    expect(selectChannelInvitations(at(some), CH)).toMatchObject({
      status: 'loaded',
      items: [{ id: 'inv1' }],
      error: 'Server busy',
    });
  });

  it('creates one, lists it first in its channel, and lists it once', () => {
    let state = reducer(
      initialState,
      channelInvitationsLoaded({ channelId: CH, items: [invitation('old')] }),
    );
    state = reducer(
      state,
      invitationCreateRequested({ channelId: CH, passes: 1, credits: 0, expiresAt: NOW + 1 }),
    );
    expect(selectInvitationCreate(at(state))).toEqual({ status: 'sending', error: null, created: null });
    state = reducer(state, invitationCreated({ invitation: invitation('new') }));
    state = reducer(state, invitationCreated({ invitation: invitation('new') }));
    expect(selectInvitationCreate(at(state))).toMatchObject({ status: 'created', created: { id: 'new' } });
    expect(selectChannelInvitations(at(state), CH)?.items.map((i) => i.id)).toEqual(['new', 'old']);
  });

  it('does not start a list of a channel nobody loaded when one is created there', () => {
    const state = reducer(initialState, invitationCreated({ invitation: invitation('new') }));
    expect(selectChannelInvitations(at(state), CH)).toBeUndefined();
  });

  it('says why a creation failed, and forgets it when dismissed', () => {
    let state = reducer(
      initialState,
      invitationCreateRequested({ channelId: CH, passes: 0, credits: 0, expiresAt: 0 }),
    );
    state = reducer(state, invitationCreateFailed({ message: 'The expiry must be in the future.' }));
    expect(selectInvitationCreate(at(state))).toEqual({
      status: 'failed',
      error: 'The expiry must be in the future.',
      created: null,
    });
    expect(selectInvitationCreate(at(reducer(state, invitationCreateDismissed())))).toEqual({
      status: 'idle',
      error: null,
      created: null,
    });
  });
});

describe('invitations reducer: sign-out', () => {
  it('forgets everything of the account', () => {
    let state = reducer(viewingLoaded(invitation('inv1')), acceptRequested({ id: 'inv1' }));
    state = reducer(state, channelInvitationsLoaded({ channelId: CH, items: [invitation('inv1')] }));
    state = reducer(state, invitationCreated({ invitation: invitation('inv2') }));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it('stays serializable, failures included', () => {
    let state = reducer(viewing('inv1'), invitationFailed({ id: 'inv1', error: expired }));
    state = reducer(state, acceptFailed({ id: 'inv1', error: used }));
    state = reducer(state, activated({ invitation: invitation('inv1') }));
    state = reducer(state, channelInvitationsLoaded({ channelId: CH, items: [invitation('inv1')] }));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});

describe('invitations reducer: the public preview (issue #13 part 8)', () => {
  const shown = {
    id: 'InviteA0000000000001',
    consultantName: 'Dana',
    channelTitle: 'Growth Clinic',
    passes: 2,
    credits: 5,
    expiresAt: NOW,
    state: 'open' as const,
    forOneEmail: false,
  };

  it('loads the preview asked for, and drops an answer about another one', () => {
    const asked = reducer(initialState, previewRequested({ id: shown.id }));
    expect(selectInvitationPreview(at(asked)).status).toBe('loading');
    expect(reducer(asked, previewLoaded({ preview: { ...shown, id: 'InviteB0000000000001' } }))).toBe(asked);
    expect(selectInvitationPreview(at(reducer(asked, previewLoaded({ preview: shown }))))).toEqual({
      id: shown.id,
      status: 'loaded',
      preview: shown,
      error: null,
    });
  });

  it('keeps the failure’s status and reason for the screen’s words', () => {
    const asked = reducer(initialState, previewRequested({ id: shown.id }));
    const failed = reducer(
      asked,
      previewFailed({ id: shown.id, error: { status: 'NOT_FOUND', message: 'No' } }),
    );
    expect(selectInvitationPreview(at(failed))).toMatchObject({
      status: 'failed',
      error: { status: 'NOT_FOUND' },
    });
  });
});
