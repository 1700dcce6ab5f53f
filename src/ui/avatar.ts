// A person's (or a channel's) initials and colour, when there is no picture: the first letter of the first and the
// last word, whatever the script (graphemes, so an emoji or an accented letter stays whole), on one of twelve
// colours chosen by a hash of the id, so a person keeps their colour in every window, on every device. Every
// colour carries white text at WCAG AA contrast (4.5:1 or more; __tests__/ui/Avatar.test.tsx measures it).
export const AVATAR_COLOURS = [
  '#a61b29',
  '#a8400e',
  '#7d5700',
  '#556300',
  '#2e7d32',
  '#00695c',
  '#0b6580',
  '#1e5aa8',
  '#3f4fb5',
  '#6a3fb5',
  '#8e2f8f',
  '#a3245e',
] as const;

/** A letter, a digit or a pictograph (an emoji): what an initial may be. */
const INITIAL = /[\p{L}\p{N}\p{Extended_Pictographic}\p{Regional_Indicator}]/u;

const segmenter =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl
    ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    : null;

function graphemes(word: string): string[] {
  return segmenter ? Array.from(segmenter.segment(word), (s) => s.segment) : Array.from(word);
}

/** The word's first grapheme that can be an initial (so "(Dana)" gives "D"), upper-cased where that keeps it one. */
function initialOf(word: string): string {
  const first = graphemes(word).find((g) => INITIAL.test(g)) ?? '';
  const upper = first.toLocaleUpperCase();
  return graphemes(upper).length === 1 ? upper : first;
}

/** Initials already worked out, by name: a live message redraws avatars whose names have not changed. */
const known = new Map<string, string>();
const KNOWN_MAX = 500;

/** "Dana Scully" → "DS", "dana" → "D", "محمد علي" → "مع", "🦊 Fox" → "🦊F"; nothing usable → "?". */
export function initialsOf(name: string): string {
  let initials = known.get(name);
  if (initials === undefined) {
    initials = initialsNow(name);
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(name, initials);
  }
  return initials;
}

function initialsNow(name: string): string {
  const words = name
    .trim()
    .split(/\s+/u)
    .filter((word) => INITIAL.test(word));
  if (words.length === 0) return '?';
  const first = initialOf(words[0]!);
  const last = words.length > 1 ? initialOf(words[words.length - 1]!) : '';
  return first + last;
}

/** The colour's index for an id: FNV-1a over its UTF-16 units, the same everywhere. */
export function colourIndexOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % AVATAR_COLOURS.length;
}
