// A face: the person's picture when they have one (core/photos.ts), else their initials on their colour
// (src/ui/avatar.ts). Beside a name it is decoration (hidden from screen readers); alone it takes `label`. A picture
// that does not load falls back to the initials.
import { useState } from 'react';
import type { Channel } from '@core/model';
import { channelDisplayName, isPrivateChannel, otherParticipant } from '@core/privateChannels';
import { colourIndexOf, initialsOf } from './avatar';
import './avatar.css';

export type AvatarSize = 'small' | 'medium' | 'large';

const PIXELS: Record<AvatarSize, number> = { small: 28, medium: 36, large: 96 };

export function Avatar({
  id,
  name,
  photoURL,
  size = 'medium',
  label,
  className = '',
}: {
  /** Whose: a uid (or a channel's id); it picks the colour. */
  id: string;
  name: string;
  photoURL?: string | undefined;
  size?: AvatarSize;
  /** The accessible name, when no name is shown beside it. */
  label?: string;
  /** Where it sits (a class of avatar.css, such as avatar--inline). */
  className?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  if (photoURL && failed !== photoURL) {
    return (
      <img
        className={`avatar avatar--${size} ${className}`.trim()}
        src={photoURL}
        alt={label ?? ''}
        {...(label ? {} : { 'aria-hidden': true })}
        width={PIXELS[size]}
        height={PIXELS[size]}
        decoding="async"
        onError={() => setFailed(photoURL)}
      />
    );
  }
  return (
    <span className={`avatar avatar--${size} avatar--c${colourIndexOf(id)} ${className}`.trim()} {...a11y}>
      {initialsOf(name)}
    </span>
  );
}

/**
 * A channel's face for the person looking: a private consultation shows the other person (their picture, else their
 * initials); a channel shows its title's initials on the channel's colour.
 */
export function channelFace(
  channel: Pick<Channel, 'id' | 'ownerId' | 'members' | 'title' | 'kind' | 'names' | 'photos'>,
  viewerUid: string,
): { id: string; name: string; photoURL: string | undefined } {
  const other = isPrivateChannel(channel) ? otherParticipant(channel, viewerUid) : '';
  if (other === '')
    return { id: channel.id, name: channelDisplayName(channel, viewerUid), photoURL: undefined };
  return { id: other, name: channelDisplayName(channel, viewerUid), photoURL: channel.photos?.[other] };
}
