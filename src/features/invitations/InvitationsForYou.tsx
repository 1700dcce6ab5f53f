// The invitations waiting for the signed-in person (issue #12): those naming their email that they can still
// accept, newest first. Kept live by invitationsSaga, so one sent while the home screen is open appears without a
// reload, and one accepted in another window leaves. The card loads on demand: most people have none waiting,
// and the first screen stays within its budget.
import { Suspense, useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { myInvitationsRequested, selectMyInvitations } from '@/store/invitationsSlice';
import { lazyComponent } from '@/app/lazyComponent';

// A default export, so that the shell carries no wrapper to rename it (its budget has bytes, not kilobytes, left).
const InvitationsCard = lazyComponent(() =>
  import(/* webpackChunkName: "invitations-for-you" */ './InvitationsCard').then((m) => m.default),
);

export function InvitationsForYou() {
  const dispatch = useAppDispatch();
  const { items } = useAppSelector(selectMyInvitations);
  useEffect(() => {
    dispatch(myInvitationsRequested());
  }, [dispatch]);

  // The live region is always there, so a screen reader hears an invitation that arrives.
  return (
    <div className="invitations-for-you" aria-live="polite">
      {items.length > 0 && (
        <Suspense fallback={null}>
          <InvitationsCard items={items} />
        </Suspense>
      )}
    </div>
  );
}
