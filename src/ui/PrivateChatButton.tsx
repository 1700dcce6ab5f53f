// "Talk privately with Dana" (a client, in their consultant's channel) and "Message Morgan privately" (a
// consultant, beside a member of their channel): opens the private consultation of the two,
// new or existing, and shows it. A refusal is shown in words beside the button.
import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { channelPath } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { privateChannelRequested, privateChannelShown, selectPrivateChat } from '@/store/membersSlice';

export function PrivateChatButton({
  withUid,
  viaChannelId,
  label,
}: {
  withUid: string;
  viaChannelId: string;
  label: string;
}) {
  const dispatch = useAppDispatch();
  const chat = useAppSelector(selectPrivateChat);
  const mine = chat.withUid === withUid;
  const opening = mine && chat.status === 'opening';

  const openedId = mine && chat.status === 'opened' ? chat.channelId : null;
  // Once shown, the answer is let go of (a later press opens it again).
  useEffect(() => {
    if (openedId !== null) dispatch(privateChannelShown());
  }, [dispatch, openedId]);

  if (openedId !== null) return <Navigate to={channelPath(openedId)} />;
  return (
    <span className="private-chat">
      <button
        type="button"
        className="button button--small"
        disabled={opening}
        onClick={() => dispatch(privateChannelRequested({ withUid, viaChannelId }))}
      >
        {opening ? 'Opening…' : label}
      </button>
      {mine && chat.status === 'failed' && (
        <span className="form-error" role="alert">
          {chat.error}
        </span>
      )}
    </span>
  );
}
