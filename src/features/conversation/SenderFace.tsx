// Another person's message in a channel, with their face beside it (src/ui/Avatar.tsx): on the first message of
// their group, and the same room kept empty under it, so a group's bubbles line up.
import type { ReactNode } from 'react';
import type { ChatMessage } from '@core/model';
import { Avatar } from '@/ui/Avatar';
import './senderFace.css';

export function WithSenderFace({
  message,
  grouped,
  photoURL,
  children,
}: {
  message: Pick<ChatMessage, 'senderId' | 'senderName'>;
  grouped: boolean;
  photoURL: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="message-face-row">
      {grouped ? (
        <span className="message-face message-face--spacer" />
      ) : (
        <Avatar
          id={message.senderId}
          name={message.senderName}
          photoURL={photoURL}
          size="small"
          className="message-face"
        />
      )}
      {children}
    </div>
  );
}
