import { findNonSerializableValue } from '@reduxjs/toolkit';
import reducer, {
  debugButtonDimmed,
  debugButtonShown,
  debugMenuOpened,
  initialState,
  selectDebugButtonDimmed,
} from '@/store/debugSlice';
import type { DebugState } from '@/store/debugSlice';

const dimmed = (debug: DebugState) => selectDebugButtonDimmed({ debug });

describe('debug reducer (spec §2: the iOS debug button)', () => {
  it('starts with the button at full strength', () => {
    expect(dimmed(reducer(undefined, { type: '@@INIT' }))).toBe(false);
  });

  it('dims the button when told, and brings it back to full strength when it shows again', () => {
    const faded = reducer(reducer(initialState, debugButtonShown()), debugButtonDimmed());
    expect(dimmed(faded)).toBe(true);
    expect(dimmed(reducer(faded, debugButtonShown()))).toBe(false);
  });

  it('leaves the button as it is when the menu opens (the menu is a prompt, not state)', () => {
    const faded = reducer(initialState, debugButtonDimmed());
    expect(reducer(faded, debugMenuOpened())).toBe(faded);
    expect(reducer(initialState, debugMenuOpened())).toBe(initialState);
  });

  it('stays serializable', () => {
    expect(findNonSerializableValue(reducer(initialState, debugButtonDimmed()))).toBe(false);
  });
});
