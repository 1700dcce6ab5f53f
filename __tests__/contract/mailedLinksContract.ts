// The port contract of the links QuPM mails, run by portContract.ts on both adapters: a
// sign-up's link confirms the new account's address; an address not confirmed stays so until a mailed link is used,
// and until then an invitation bound to it is not theirs; a used or forged link is refused; a password reset sets the new password, the same answer
// whether the address has an account or not.
import type { Backend } from '@/backend/ports';
import { failure } from './support/failure';
import type { Harness } from './support/harness';
import { CHANNELS, PASSWORD, PEOPLE, START } from './support/world';

const DAY = 86_400_000;

export function describeMailedLinksContract(harness: () => Harness): void {
  describe('mailed links (issue #15)', () => {
    let h: Harness;
    beforeEach(() => {
      h = harness();
    });

    it("confirms a new account's address with the link mailed at sign-up, once", async () => {
      const asking = h.signedOut();
      await asking.auth.signUp({ email: 'nia.links@qupm.test', password: 'nia-password-1' });
      await h.settle();
      const token = await h.mailedToken('nia.links@qupm.test', 'sign-up');
      await h.signedOut().auth.verifyEmail(token);
      const nia = h.signedOut();
      await nia.auth.signIn({ email: 'nia.links@qupm.test', password: 'nia-password-1' });
      expect(await nia.auth.getEmailVerification()).toEqual({ email: 'nia.links@qupm.test', verified: true });
      // Used once: refused the second time.
      expect((await failure(h.signedOut().auth.verifyEmail(token))).status).toBe('FAILED_PRECONDITION');
    });

    it('leaves an address unconfirmed until a link is opened', async () => {
      const lee = await h.unconfirmedAccount({ email: 'lee.links@qupm.test', password: 'lee-password-1' });
      expect(await lee.auth.getEmailVerification()).toEqual({
        email: 'lee.links@qupm.test',
        verified: false,
      });
      await lee.auth.sendEmailVerification();
      await h.signedOut().auth.verifyEmail(await h.mailedToken('lee.links@qupm.test', 'verify-email'));
      expect(await lee.auth.getEmailVerification()).toEqual({ email: 'lee.links@qupm.test', verified: true });
    });

    it('mails another link on request; a forged one is refused', async () => {
      const sam = await h.unconfirmedAccount({ email: 'sam.links@qupm.test', password: 'sam-password-1' });
      await h.settle();
      await sam.auth.sendEmailVerification();
      const first = await h.mailedToken('sam.links@qupm.test', 'verify-email');
      await sam.auth.sendEmailVerification();
      const second = await h.mailedToken('sam.links@qupm.test', 'verify-email');
      expect(second).not.toBe(first);
      await failure(sam.auth.verifyEmail('Z'.repeat(43)));
      expect((await failure(sam.auth.verifyEmail('not a link'))).status).toBe('INVALID_ARGUMENT');
      await sam.auth.verifyEmail(second);
      expect((await sam.auth.getEmailVerification()).verified).toBe(true);
    });

    it('keeps an invitation bound to an address from an account that has not confirmed it', async () => {
      const consultant = await h.as('consultant');
      const invitation = await consultant.invitations.createInvitation({
        channelId: CHANNELS.clinic.id,
        inviteeEmail: 'claimed@qupm.test',
        passes: 1,
        credits: 2,
        expiresAt: START + 7 * DAY,
      });
      const claimant: Backend = await h.unconfirmedAccount({
        email: 'claimed@qupm.test',
        password: 'claim-password-1',
      });
      await h.settle();
      expect(await claimant.invitations.listMyInvitations()).toEqual([]);
      expect((await failure(claimant.invitations.acceptInvitation(invitation.id))).status).toBe(
        'PERMISSION_DENIED',
      );
      await claimant.auth.sendEmailVerification();
      await h.signedOut().auth.verifyEmail(await h.mailedToken('claimed@qupm.test', 'verify-email'));
      expect((await claimant.auth.getEmailVerification()).verified).toBe(true);
      expect((await claimant.invitations.listMyInvitations()).map((i) => i.id)).toEqual([invitation.id]);
      expect(await claimant.invitations.acceptInvitation(invitation.id)).toMatchObject({
        status: 'accepted',
      });
    });

    it('resets a password with the mailed link, and answers an unknown address the same', async () => {
      const signedOut = h.signedOut();
      await expect(signedOut.auth.requestPasswordReset('nobody.here@qupm.test')).resolves.toBeUndefined();
      await expect(signedOut.auth.requestPasswordReset(PEOPLE.visitor.email)).resolves.toBeUndefined();
      await expect(h.mailedToken('nobody.here@qupm.test', 'reset-password')).rejects.toThrow();
      const token = await h.mailedToken(PEOPLE.visitor.email, 'reset-password');
      await signedOut.auth.confirmPasswordReset(token, 'a-new-password-1');
      const fresh = h.signedOut();
      await failure(fresh.auth.signIn({ email: PEOPLE.visitor.email, password: PASSWORD }));
      await fresh.auth.signIn({ email: PEOPLE.visitor.email, password: 'a-new-password-1' });
      expect(fresh.auth.currentUser()?.email).toBe(PEOPLE.visitor.email);
      await failure(signedOut.auth.confirmPasswordReset(token, 'another-password-2'));
      expect((await failure(signedOut.auth.confirmPasswordReset(token, 'short'))).status).toBe(
        'INVALID_ARGUMENT',
      );
    });
  });
}

export function describeEmailChangeContract(harness: () => Harness): void {
  describe('change of email (issue #15 part 4)', () => {
    let h: Harness;
    beforeEach(() => {
      h = harness();
    });

    it('needs the current password, and changes the address only when the link mailed to the new one is used', async () => {
      const member = await h.as('member');
      const refused = await failure(member.auth.changeEmail('not-the-password', 'morgan.moved@qupm.test'));
      expect(refused.reason).toBe('invalid-credentials');
      expect(member.auth.currentUser()).not.toBeNull();
      await member.auth.changeEmail(PASSWORD, 'morgan.moved@qupm.test');
      // Not yet: the old address signs in.
      await h.signedOut().auth.signIn({ email: PEOPLE.member.email, password: PASSWORD });
      await h.signedOut().auth.verifyEmail(await h.mailedToken('morgan.moved@qupm.test', 'change-email'));
      await failure(h.signedOut().auth.signIn({ email: PEOPLE.member.email, password: PASSWORD }));
      const moved = h.signedOut();
      await moved.auth.signIn({ email: 'morgan.moved@qupm.test', password: PASSWORD });
      expect(moved.auth.currentUser()?.uid).toBe(PEOPLE.member.uid);
    });
  });
}
