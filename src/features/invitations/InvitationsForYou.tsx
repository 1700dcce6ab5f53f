// The invitations waiting for the signed-in person: those naming their email that they can still
// accept, newest first. Kept live by invitationsSaga, so one sent while the home screen is open appears without a
// reload, and one accepted in another window leaves. The card is handed in by the route, which loads it on demand
// (InvitationsCard.tsx): most people have none waiting.
import { Suspense, useEffect } from 'react';
import type { ComponentType } from 'react';
import type { Invitation } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { myInvitationsRequested, selectMyInvitations } from '@/store/invitationsSlice';

export function InvitationsForYou({
  InvitationsCard,
}: {
  InvitationsCard: ComponentType<{ items: Invitation[] }>;
}) {
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
