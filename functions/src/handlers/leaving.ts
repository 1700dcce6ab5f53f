// Leaving on Firebase: export_my_data answers the caller's AccountExport (core/leaving.ts), the
// same document as the embedded server's GET /api/users/:uid/export; delete_my_account, called once the client
// has re-authenticated with the password (functions.ts checks the sign-in is recent), refuses a consultant who
// still owns channels, hands what stays to the former member, deletes the account's documents and the uploads it
// never sent, and then the Firebase Auth account (which ends its refresh tokens).
import { normalizeEmail } from '../../../core/email';
import { QupmError, SESSION_ENDED_MESSAGE } from '../../../core/errors';
import type { AccountExport } from '../../../core/leaving';
import { assertCanLeave, assertNoOpenSessions, buildAccountExport } from '../../../core/leaving';
import { isOpenBooking, planCancel } from '../../../core/bookings';
import { activeMutes } from '../../../core/mutes';
import type { Caller } from '../../../core/permissions';
import type { Deps } from '../repository';
import { deleteUnsentUploadsOf } from './attachments';
import { productCallables } from './product';

// An account already gone took its session with it: the embedded server's words and reason (server/services/leaving.ts).
const accountGone = (): QupmError =>
  new QupmError('UNAUTHENTICATED', SESSION_ENDED_MESSAGE, 'session-expired');

export const leavingCallables = {
  async export_my_data(deps: Deps, caller: Caller): Promise<AccountExport> {
    const now = deps.now();
    const user = await deps.repo.getUser(caller.uid);
    if (!user) throw accountGone();
    const account = user.email ? user : { ...user, email: caller.email };
    const [data, issued] = await Promise.all([
      deps.repo.readAccountData(caller.uid, account.email ? normalizeEmail(account.email) : ''),
      productCallables.list_issued_offers(deps, caller, undefined),
    ]);
    return buildAccountExport(
      { ...data, account, mutes: activeMutes(data.mutes, now), offersIssued: issued.offers },
      now,
    );
  },

  async delete_my_account(deps: Deps, caller: Caller): Promise<{ success: true }> {
    if (!(await deps.repo.getUser(caller.uid))) throw accountGone();
    assertCanLeave(await deps.repo.ownedChannelTitles(caller.uid));
    // As on the embedded server: a consultant's sessions still open keep them here; a client's are cancelled.
    const asConsultant = await deps.practice.bookingsOfConsultant(caller.uid);
    assertNoOpenSessions(asConsultant.filter(isOpenBooking).length);
    for (const booking of (await deps.practice.bookingsOfClient(caller.uid)).filter(isOpenBooking)) {
      await deps.practice.run(async (tx) => {
        const before = await tx.booking(booking.id);
        if (!before || !isOpenBooking(before)) return;
        try {
          tx.saveBooking(planCancel(before, caller, deps.now()).booking, before);
        } catch {
          // A session already under way stays as it is in the consultant's history.
        }
      });
    }
    // Read before the memberships go: the channels where their unsent uploads can be.
    const joined = await deps.repo.listChannelsFor(caller.uid);
    await deps.repo.deleteAccountData(caller.uid, deps.now());
    await deleteUnsentUploadsOf(
      deps,
      caller.uid,
      joined.map((channel) => channel.id),
    );
    // Last: an account whose data or files failed to go is still there to try again.
    await deps.accounts.deleteAccount(caller.uid);
    return { success: true };
  },
};
