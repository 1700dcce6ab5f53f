// The quiet signs of the live conversation: "Reconnecting…" while live data is not flowing (the
// offline notice of the layout says more when the browser knows it is offline), and a one-time word when
// something kept on this device could not be read back and was removed.
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectIsOnline } from '@/store/appSlice';
import { selectReconnecting } from '@/store/liveSlice';
import { droppedNoticeDismissed, selectDroppedCount } from '@/store/outboxSlice';

export function ReconnectingStatus() {
  const reconnecting = useAppSelector(selectReconnecting);
  const online = useAppSelector(selectIsOnline);
  return (
    <p className="live-status" role="status" hidden={!reconnecting || !online}>
      {reconnecting && online ? 'Reconnecting…' : ''}
    </p>
  );
}

export function DroppedNotice() {
  const dispatch = useAppDispatch();
  const dropped = useAppSelector(selectDroppedCount);
  if (dropped === 0) return null;
  return (
    <div className="service-banner dropped-notice" role="alert">
      <p>
        {dropped === 1
          ? 'One unsent message or draft on this device could not be read and was removed.'
          : `${dropped} unsent messages or drafts on this device could not be read and were removed.`}
      </p>
      <button
        type="button"
        className="button button--small"
        onClick={() => dispatch(droppedNoticeDismissed())}
      >
        OK
      </button>
    </div>
  );
}
