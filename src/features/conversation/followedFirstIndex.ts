// The conversation list's first index for react-virtuoso while it follows the newest (MessageList.tsx).
import { useState } from 'react';

/**
 * The list's first index for virtuoso. Rows added above move it down (virtuoso keeps them out of view). Rows let go
 * at the top move it up, except while the list follows the newest: a full window lets its oldest go as each message
 * arrives, and virtuoso, told of that as the first index going up with the same count, loses rows at the end (in a
 * burst the newest rows were left out of the list). While following, the rows let go simply go (the rows below
 * move up, and the list is taken to its bottom anyway). Starts again with each generation of the list.
 */
export function useFollowedFirstIndex(first: number, generation: number, following: boolean): number {
  const [seen, setSeen] = useState({ generation, first, following, letGo: 0 });
  if (seen.generation !== generation) {
    setSeen({ generation, first, following, letGo: 0 });
    return first;
  }
  // Following before this change as well as after it: a page forward that reaches the newest, letting the oldest go
  // as it comes, is a shift virtuoso must know of (the rows the person reads stay where they are).
  const letGo = seen.letGo + (seen.following && following && first > seen.first ? first - seen.first : 0);
  if (seen.first !== first || seen.following !== following) setSeen({ generation, first, following, letGo });
  return first - letGo;
}
