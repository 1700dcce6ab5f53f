// The iOS debug menu (spec §2): whether its button has dimmed. The menu itself is a prompt the
// debug saga runs; nothing of it is state.
import { createSlice } from '@reduxjs/toolkit';

export interface DebugState {
  buttonDimmed: boolean;
}

export const initialState: DebugState = { buttonDimmed: false };

const debugSlice = createSlice({
  name: 'debug',
  initialState,
  reducers: {
    /** The button appeared (iOS, signed in); it dims after spec §9's 10 s. */
    debugButtonShown(state) {
      state.buttonDimmed = false;
    },
    debugButtonDimmed(state) {
      state.buttonDimmed = true;
    },
    debugMenuOpened() {},
  },
});

export const { debugButtonShown, debugButtonDimmed, debugMenuOpened } = debugSlice.actions;
export default debugSlice.reducer;

interface WithDebug {
  debug: DebugState;
}
export const selectDebugButtonDimmed = (state: WithDebug): boolean => state.debug.buttonDimmed;
