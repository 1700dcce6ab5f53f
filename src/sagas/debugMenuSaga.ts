// The iOS debug menu (spec §2): Safari on iOS has no developer tools on the device, so a fixed
// button (iOS only, signed in) opens a prompt with spec §2's 8 numbered options and answers in an alert. This saga
// is the dialog: the button, the prompt, the choice. What each option does is in debugMenuOptions.ts, one table.
// The button dims after 10 s. The separate debug popup — the menu opening by itself on iOS — stays off (spec §9).
import { call, delay, put, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import { selectApp } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import { debugButtonDimmed, debugButtonShown, debugMenuOpened } from '@/store/debugSlice';
import { accountLoaded } from '@/store/userSlice';
import { browserDialogs } from '@/platform/browser';
import type { Dialogs } from '@/platform/browser';
import { DEBUG_BUTTON_DIM_MS } from '@/timings';
import { DEBUG_MENU, DEBUG_OPTIONS } from './debugMenuOptions';

/** spec §9: the iOS debug popup flag is off; the menu opens only from its button. */
export const IOS_DEBUG_POPUP_ENABLED = false;

export const DEBUG_MENU_TEXT = [
  'QuPM debug menu. Type a number:',
  ...DEBUG_OPTIONS.map((option, i) => `${i + 1}. ${option}`),
].join('\n');

/** The option number typed (1-8), or null for anything else; an empty answer or Escape is Cancel. */
export function parseChoice(answer: string | null): number | null {
  if (answer === null || answer.trim() === '') return DEBUG_MENU.length;
  const n = Number(answer.trim().replace(/\.$/, ''));
  return Number.isInteger(n) && n >= 1 && n <= DEBUG_MENU.length ? n : null;
}

export function* handleMenuOpened(dialogs: Dialogs) {
  const answer: string | null = yield call([dialogs, dialogs.prompt], DEBUG_MENU_TEXT);
  const choice = parseChoice(answer);
  if (choice === null) {
    yield call([dialogs, dialogs.alert], `Type a number from 1 to ${DEBUG_MENU.length}.`);
    return;
  }
  const { run } = DEBUG_MENU[choice - 1]!;
  if (run) yield call(run, dialogs);
}

export function* dimButton() {
  yield delay(DEBUG_BUTTON_DIM_MS);
  yield put(debugButtonDimmed());
}

/** The debug popup (off): the menu would open by itself when someone signs in on iOS. */
export function* popUpOnSignIn(dialogs: Dialogs) {
  while (true) {
    yield take(accountLoaded.type);
    const app: AppState = yield select(selectApp);
    if (app.platform === 'ios') yield call(handleMenuOpened, dialogs);
  }
}

export function* debugMenuSaga(dialogs: Dialogs = browserDialogs, popup: boolean = IOS_DEBUG_POPUP_ENABLED) {
  yield takeLatest(debugButtonShown.type, dimButton);
  yield takeLeading(debugMenuOpened.type, handleMenuOpened, dialogs);
  if (popup) yield call(popUpOnSignIn, dialogs);
}
