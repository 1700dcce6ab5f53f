import {
  acceptInvitation,
  activateInvitation,
  assertCanReadInvitation,
  canReadInvitation,
  effectiveInvitationStatus,
  isInvitationGrant,
  openInvitationsFor,
  planAccept,
  toInvitationPreview,
  withEffectiveStatus,
} from '@core/invitations';
import { invitationCreateBody } from '@core/schemas';
import { QupmError } from '@core/errors';
import type { Invitation } from '@core/model';

const NOW = 1_000_000;
const invitee = { uid: 'invitee', email: 'guest@example.com' };
const stranger = { uid: 'stranger', email: 'someone@example.com' };

const invitation = (over: Partial<Invitation> = {}): Invitation => ({
  id: 'inv',
  channelId: 'ch',
  channelTitle: 'Growth Clinic',
  consultantId: 'consultant',
  consultantName: 'Dana',
  inviteeEmail: 'guest@example.com',
  status: 'pending',
  passes: 2,
  credits: 5,
  expiresAt: NOW + 1000,
  ...over,
});

function refusal(run: () => unknown): { status: string; reason?: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QupmError);
    const { status, reason } = error as QupmError;
    return reason === undefined ? { status } : { status, reason };
  }
  throw new Error('expected a refusal');
}

describe('effectiveInvitationStatus', () => {
  it('reads a pending invitation past its expiry as expired', () => {
    expect(effectiveInvitationStatus(invitation({ expiresAt: NOW }), NOW)).toBe('expired');
    expect(effectiveInvitationStatus(invitation(), NOW)).toBe('pending');
    expect(withEffectiveStatus(invitation({ expiresAt: NOW - 1 }), NOW).status).toBe('expired');
  });

  it('keeps accepted and activated as they are', () => {
    expect(effectiveInvitationStatus(invitation({ status: 'accepted', expiresAt: 0 }), NOW)).toBe('accepted');
    expect(effectiveInvitationStatus(invitation({ status: 'activated', expiresAt: 0 }), NOW)).toBe(
      'activated',
    );
  });
});

describe('acceptInvitation', () => {
  it('accepts a pending invitation for its invitee', () => {
    expect(acceptInvitation(invitation(), invitee, NOW)).toMatchObject({
      status: 'accepted',
      acceptedBy: 'invitee',
    });
  });

  it('compares the invitee email without regard to case', () => {
    expect(acceptInvitation(invitation(), { uid: 'invitee', email: 'Guest@Example.COM' }, NOW).status).toBe(
      'accepted',
    );
  });

  it('lets anyone with the link accept an invitation that names no email', () => {
    const open = invitation({ inviteeEmail: undefined });
    expect(acceptInvitation(open, stranger, NOW).acceptedBy).toBe('stranger');
  });

  it('refuses a second accept as FAILED_PRECONDITION invitation-used, by the same user or another', () => {
    const accepted = invitation({ status: 'accepted', acceptedBy: 'invitee' });
    expect(refusal(() => acceptInvitation(accepted, invitee, NOW))).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-used',
    });
    const open = invitation({ inviteeEmail: undefined, status: 'accepted', acceptedBy: 'invitee' });
    expect(refusal(() => acceptInvitation(open, stranger, NOW)).reason).toBe('invitation-used');
    expect(
      refusal(() =>
        acceptInvitation(invitation({ status: 'activated', acceptedBy: 'invitee' }), invitee, NOW),
      ).reason,
    ).toBe('invitation-used');
  });

  it('refuses an expired invitation', () => {
    expect(refusal(() => acceptInvitation(invitation({ expiresAt: NOW }), invitee, NOW))).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-expired',
    });
    expect(refusal(() => acceptInvitation(invitation({ status: 'expired' }), invitee, NOW)).reason).toBe(
      'invitation-expired',
    );
  });

  it('refuses someone the invitation is not addressed to, and the consultant themself', () => {
    expect(refusal(() => acceptInvitation(invitation(), stranger, NOW))).toEqual({
      status: 'PERMISSION_DENIED',
      reason: 'invitation-not-yours',
    });
    const own = invitation({ inviteeEmail: undefined });
    expect(refusal(() => acceptInvitation(own, { uid: 'consultant', email: 'c@x.co' }, NOW)).reason).toBe(
      'invitation-not-yours',
    );
  });
});

describe('activateInvitation', () => {
  const accepted = invitation({ status: 'accepted', acceptedBy: 'invitee' });

  it('activates an accepted invitation for its acceptor and grants its passes and credits', () => {
    expect(activateInvitation(accepted, invitee, NOW)).toEqual({
      invitation: { ...accepted, status: 'activated' },
      grant: { passes: 2, credits: 5 },
    });
  });

  it('refuses a second activation as invitation-used', () => {
    expect(refusal(() => activateInvitation({ ...accepted, status: 'activated' }, invitee, NOW))).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-used',
    });
  });

  it('refuses to activate before accepting', () => {
    expect(refusal(() => activateInvitation(invitation(), invitee, NOW))).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-not-accepted',
    });
  });

  it('refuses someone other than the acceptor', () => {
    const open = invitation({ inviteeEmail: undefined, status: 'accepted', acceptedBy: 'invitee' });
    expect(refusal(() => activateInvitation(open, stranger, NOW))).toEqual({
      status: 'PERMISSION_DENIED',
      reason: 'invitation-not-yours',
    });
  });

  it('refuses an accepted invitation that has expired since, and an expired pending one', () => {
    expect(refusal(() => activateInvitation({ ...accepted, expiresAt: NOW }, invitee, NOW)).reason).toBe(
      'invitation-expired',
    );
    expect(refusal(() => activateInvitation(invitation({ expiresAt: NOW - 1 }), invitee, NOW)).reason).toBe(
      'invitation-expired',
    );
  });
});

describe('canReadInvitation', () => {
  const reader = (uid: string, email: string, isAdmin = false) => ({ uid, email, isAdmin });

  it('lets the consultant, an admin and the invitee read; not others', () => {
    expect(canReadInvitation(invitation(), reader('consultant', 'c@x.co'))).toBe(true);
    expect(canReadInvitation(invitation(), reader('admin', 'a@x.co', true))).toBe(true);
    expect(canReadInvitation(invitation(), reader('invitee', 'guest@example.com'))).toBe(true);
    expect(canReadInvitation(invitation(), reader('stranger', 'someone@example.com'))).toBe(false);
  });

  it('binds an email-bound invitation to a confirmed email only (issue #14 part 10)', () => {
    const unconfirmed = { ...reader('invitee', 'guest@example.com'), emailVerified: false };
    expect(canReadInvitation(invitation(), unconfirmed)).toBe(false);
    expect(canReadInvitation(invitation(), { ...unconfirmed, emailVerified: true })).toBe(true);
    expect(refusal(() => acceptInvitation(invitation(), unconfirmed, NOW))).toMatchObject({
      status: 'PERMISSION_DENIED',
      reason: 'email-not-verified',
    });
    expect(openInvitationsFor([{ invitation: invitation(), createdAt: NOW - 1 }], unconfirmed, NOW)).toEqual(
      [],
    );
    // A link invitation names nobody: an unconfirmed account may take it.
    expect(acceptInvitation(invitation({ inviteeEmail: undefined }), unconfirmed, NOW).status).toBe(
      'accepted',
    );
  });

  it('once accepted, lets only the acceptor among invitees read', () => {
    const open = invitation({ inviteeEmail: undefined, status: 'accepted', acceptedBy: 'invitee' });
    expect(canReadInvitation(open, reader('invitee', 'guest@example.com'))).toBe(true);
    expect(canReadInvitation(open, reader('stranger', 'someone@example.com'))).toBe(false);
  });
});

describe('isInvitationGrant', () => {
  const body = (passes: unknown, credits: unknown) => ({
    channelId: 'AbCdEfGhIj0123456789',
    passes,
    credits,
    expiresAt: 1,
  });

  it.each([
    [0, true],
    [1000, true],
    [-1, false],
    [1001, false],
    [0.5, false],
    ['1', false],
  ])('%p → %s, for passes and credits, in the form and the schema alike', (value, expected) => {
    expect(isInvitationGrant(value)).toBe(expected);
    expect(invitationCreateBody.safeParse(body(value, 0)).success).toBe(expected);
    expect(invitationCreateBody.safeParse(body(0, value)).success).toBe(expected);
  });
});

describe('openInvitationsFor (the invitations waiting on the home screen)', () => {
  const at = (createdAt: number, over: Partial<Invitation>) => ({ invitation: invitation(over), createdAt });

  it('lists the pending, unexpired ones naming the email, whatever its case, newest first then by id', () => {
    const list = [
      at(1, { id: 'old' }),
      at(5, { id: 'newB', inviteeEmail: 'Guest@Example.com' }),
      at(5, { id: 'newA' }),
    ];
    expect(openInvitationsFor(list, invitee, NOW).map((i) => i.id)).toEqual(['newA', 'newB', 'old']);
  });

  it('leaves out expired, accepted and activated ones, link invitations, and other people’s', () => {
    const list = [
      at(1, { id: 'expired', expiresAt: NOW }),
      at(2, { id: 'accepted', status: 'accepted', acceptedBy: invitee.uid }),
      at(3, { id: 'activated', status: 'activated', acceptedBy: invitee.uid }),
      at(4, { id: 'link', inviteeEmail: undefined }),
      at(5, { id: 'theirs', inviteeEmail: stranger.email }),
    ];
    expect(openInvitationsFor(list, invitee, NOW)).toEqual([]);
  });

  it('lists nothing for an account without an email', () => {
    expect(openInvitationsFor([at(1, { inviteeEmail: '' })], { email: '' }, NOW)).toEqual([]);
  });
});

describe('assertCanReadInvitation (issue #13 part 8)', () => {
  const reader = (uid: string, email: string) => ({ uid, email, isAdmin: false });

  it('tells someone else that an invitation already accepted was used, not that it is another account’s', () => {
    const used = invitation({ status: 'accepted', acceptedBy: 'invitee' });
    expect(refusal(() => assertCanReadInvitation(used, reader('stranger', 'someone@example.com')))).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-used',
    });
    const activated = invitation({ inviteeEmail: undefined, status: 'activated', acceptedBy: 'invitee' });
    expect(
      refusal(() => assertCanReadInvitation(activated, reader('stranger', 'someone@example.com'))),
    ).toMatchObject({ reason: 'invitation-used' });
  });

  it('tells someone an unaccepted invitation for another email is another account’s, and lets readers read', () => {
    expect(
      refusal(() => assertCanReadInvitation(invitation(), reader('stranger', 'someone@example.com'))),
    ).toEqual({ status: 'PERMISSION_DENIED', reason: 'invitation-not-yours' });
    expect(() => assertCanReadInvitation(invitation(), reader('invitee', 'guest@example.com'))).not.toThrow();
  });

  it('tells the holder of the invitation’s address, still unconfirmed, to confirm it first, and shows nothing', () => {
    const unconfirmed = { ...reader('newcomer', 'Guest@Example.com'), emailVerified: false };
    expect(refusal(() => assertCanReadInvitation(invitation(), unconfirmed))).toEqual({
      status: 'PERMISSION_DENIED',
      reason: 'email-not-verified',
    });
    // Another unconfirmed address is still just another account.
    expect(
      refusal(() => assertCanReadInvitation(invitation(), { ...unconfirmed, email: 'someone@example.com' })),
    ).toEqual({ status: 'PERMISSION_DENIED', reason: 'invitation-not-yours' });
  });
});

describe('toInvitationPreview (what anyone with the link sees)', () => {
  it('says who invites to what, what it grants and until when, and whether it names an email, not which', () => {
    const preview = toInvitationPreview(invitation(), NOW);
    expect(preview).toStrictEqual({
      id: 'inv',
      consultantName: 'Dana',
      channelTitle: 'Growth Clinic',
      passes: 2,
      credits: 5,
      expiresAt: NOW + 1000,
      state: 'open',
      forOneEmail: true,
    });
    expect(JSON.stringify(preview)).not.toMatch(/guest@example\.com|consultant"|"ch"/);
  });

  it('reads accepted and activated as used, and an unaccepted one past its date as expired', () => {
    expect(toInvitationPreview(invitation({ status: 'accepted', acceptedBy: 'x' }), NOW).state).toBe('used');
    expect(toInvitationPreview(invitation({ status: 'activated', acceptedBy: 'x' }), NOW).state).toBe('used');
    expect(toInvitationPreview(invitation({ expiresAt: NOW }), NOW).state).toBe('expired');
    expect(toInvitationPreview(invitation({ inviteeEmail: undefined }), NOW).forOneEmail).toBe(false);
  });
});

describe('planAccept (what accepting does, on both backends)', () => {
  it('joins the invitation’s channel', () => {
    const plan = planAccept(invitation(), invitee, NOW);
    expect(plan).toEqual({
      invitation: { ...invitation(), status: 'accepted', acceptedBy: 'invitee' },
      join: { channelId: 'ch' },
    });
  });

  it('opens a private consultation with the consultant instead, for one of those', () => {
    const plan = planAccept(invitation({ privateConsultation: true }), invitee, NOW);
    expect(plan).toMatchObject({ openPrivate: { ownerId: 'consultant', memberId: 'invitee' } });
    expect(plan).not.toHaveProperty('join');
  });

  it('refuses what accepting refuses', () => {
    expect(refusal(() => planAccept(invitation({ status: 'accepted' }), invitee, NOW))).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-used',
    });
    expect(refusal(() => planAccept(invitation(), stranger, NOW)).status).toBe('PERMISSION_DENIED');
  });
});
