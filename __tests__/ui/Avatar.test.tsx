/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { fireEvent, render } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Avatar } from '@/ui/Avatar';
import { AVATAR_COLOURS, colourIndexOf, initialsOf } from '@/ui/avatar';

/** WCAG 2 relative luminance and contrast, measured here rather than trusted. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
}
const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

describe('initialsOf', () => {
  it.each([
    ['Dana Scully', 'DS'],
    ['dana scully', 'DS'],
    ['Jean-Luc Picard Smith', 'JS'],
    ['  Morgan  ', 'M'],
    ['(Dana) Scully', 'DS'],
    ['Ålesund Øre', 'ÅØ'],
    ['محمد علي', 'مع'],
    ['Дмитрий Иванов', 'ДИ'],
    ['山田 太郎', '山太'],
    ['김 민준', '김민'],
    ['🦊 Fox', '🦊F'],
    ['👩‍💻 Ada', '👩‍💻A'],
    ['🇫🇷', '🇫🇷'],
    ['', '?'],
    ['-- !!', '?'],
  ])('%j → %j', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  it('keeps a letter whose capital is two letters as it is', () => {
    expect(initialsOf('ßtraße')).toBe('ß');
  });
});

describe('colourIndexOf', () => {
  it('gives one id the same colour every time, and spreads ids over the palette', () => {
    expect(colourIndexOf('AbCdEfGhIjKlMnOpQrSt')).toBe(colourIndexOf('AbCdEfGhIjKlMnOpQrSt'));
    const used = new Set(Array.from({ length: 200 }, (_, i) => colourIndexOf(`user${i}`)));
    expect(used.size).toBe(AVATAR_COLOURS.length);
  });

  it('gives a known id the colour it always had (a change would repaint everyone)', () => {
    expect(['a', 'b', 'c', 'd'].map(colourIndexOf)).toEqual([4, 1, 2, 7]);
  });

  it.each(AVATAR_COLOURS)('%s carries white initials at 4.5:1 or more', (colour) => {
    expect(contrastWithWhite(colour)).toBeGreaterThanOrEqual(4.5);
  });

  it('paints each colour class with its palette colour', () => {
    const css = readFileSync(path.join(__dirname, '../../src/ui/avatar.css'), 'utf8');
    AVATAR_COLOURS.forEach((colour, i) => {
      expect(css).toContain(`.avatar--c${i} {\n  background: ${colour};`);
    });
  });
});

describe('Avatar', () => {
  it('shows initials on the colour of the id, hidden from screen readers beside a name', () => {
    const { container } = render(<Avatar id="a" name="Dana Scully" />);
    const face = container.firstElementChild!;
    expect(face.textContent).toBe('DS');
    expect(face.className).toContain(`avatar--c${colourIndexOf('a')}`);
    expect(face.getAttribute('aria-hidden')).toBe('true');
  });

  it('shows the picture when there is one, and the initials when it does not load', () => {
    const { container } = render(
      <Avatar id="a" name="Dana Scully" photoURL="/api/photos/AbCdEfGhIjKlMnOpQrSt" />,
    );
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/api/photos/AbCdEfGhIjKlMnOpQrSt');
    expect(img.getAttribute('alt')).toBe('');
    fireEvent.error(img);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('DS');
  });

  it('names itself when it stands alone', () => {
    const { getByRole } = render(<Avatar id="a" name="Dana" label="Your profile picture" />);
    expect(getByRole('img', { name: 'Your profile picture' }).textContent).toBe('D');
  });
});
