// A face: the person's picture when they have one (core/photos.ts), else their initials on their colour
// (src/ui/avatar.ts). Beside a name it is decoration (hidden from screen readers); alone it takes `label`. A picture
// that does not load falls back to the initials.
import { useState } from 'react';
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
}: {
  /** Whose: a uid (or a channel's id); it picks the colour. */
  id: string;
  name: string;
  photoURL?: string | undefined;
  size?: AvatarSize;
  /** The accessible name, when no name is shown beside it. */
  label?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  if (photoURL && failed !== photoURL) {
    return (
      <img
        className={`avatar avatar--${size}`}
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
    <span className={`avatar avatar--${size} avatar--c${colourIndexOf(id)}`} {...a11y}>
      {initialsOf(name)}
    </span>
  );
}
