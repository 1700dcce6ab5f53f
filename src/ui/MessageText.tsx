// A message's text as text (QUALITY.md: user text never renders as HTML). Web addresses become links, but only
// http(s) ones, opened in a new tab without a referrer or access back to QuPM; everything else, `<script>` and
// `javascript:` included, is shown as the characters it is.
import { Fragment } from 'react';

const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"']+/gi;
// Punctuation that ends a sentence rather than the address it follows.
const TRAILING = /[.,;:!?)\]}'"]+$/;

export interface TextPart {
  text: string;
  href?: string;
}

/** The text split into plain parts and link parts (whose href is a parsed http(s) URL). */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_CANDIDATE)) {
    const start = match.index ?? 0;
    let candidate = match[0];
    const trailing = TRAILING.exec(candidate);
    if (trailing) candidate = candidate.slice(0, -trailing[0].length);
    let href: string | null = null;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') href = url.href;
    } catch {
      href = null;
    }
    if (href === null) continue;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: candidate, href });
    last = start + candidate.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

export function MessageText({ text }: { text: string }) {
  return (
    <>
      {splitLinks(text).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
