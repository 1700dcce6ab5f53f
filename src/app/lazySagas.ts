// The sagas that load on demand, each in its own chunk so the shell stays within its budget, all through the one
// loader (src/sagas/lazySaga.ts), which hands a chunk that fails to load to spec §4's recovery. Once a session
// starts: the conversation's device machinery, mutes and attention, leaving. At a slice's first action (handed to
// the saga with the slice's actions that came while the chunk loaded, so nothing is lost): a conversation's pages,
// a channel's people, the consultant tools, the admin section, the mailed links.
// On iOS only: the debug menu, whose button's actions that come while it loads are kept and replayed.
import { actionChannel, all, call, flush, fork, put, select, take } from 'redux-saga/effects';
import type { Channel } from 'redux-saga';
import type { Action } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import { lazySaga, whenFirstOf, whenSignedIn } from '@/sagas/lazySaga';
import { superviseQuietly } from '@/sagas/supervise';
import { selectApp, started } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import { debugButtonShown, debugMenuOpened } from '@/store/debugSlice';
import { selectAuthStatus, selectUid, signedIn } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';

export const loadConversationSagas = () =>
  import(/* webpackChunkName: "conversation" */ '@/features/conversation/sessionSagas');
export const loadAttentionSagas = () => import(/* webpackChunkName: "attention" */ './attentionSagas');
export const loadLeavingSaga = () =>
  import(/* webpackChunkName: "leaving" */ '@/features/settings/leavingSaga');
export const loadAdminSaga = () =>
  import(/* webpackChunkName: "route-settings" */ '@/features/settings/adminSaga');
export const loadEmailLinksSaga = () =>
  import(/* webpackChunkName: "route-links" */ '@/sagas/emailLinksSaga');
export const loadConsultantToolsSaga = () =>
  import(/* webpackChunkName: "consultant-tools" */ '@/features/consultantTools/consultantToolsSaga');
export const loadConversationPagesSaga = () =>
  import(/* webpackChunkName: "conversation-view" */ '@/features/conversation/conversationSaga');
export const loadMembersSaga = () =>
  import(/* webpackChunkName: "conversation-view" */ '@/sagas/membersSaga');
export const loadOffersSaga = () => import(/* webpackChunkName: "offers" */ '@/sagas/offersSaga');
export const loadDebugMenu = () => import(/* webpackChunkName: "ios-debug" */ '@/sagas/debugMenuSaga');
export const loadLastKnownSaga = () =>
  import(/* webpackChunkName: "last-known" */ '@/features/conversation/lastKnownSaga');

/**
 * Opens the last-known database while its chunk loads: a browser opens a database of a page just started in 100-250
 * ms (4x CPU), which the chunk's own open then finds done. A device without it is left without it (the chunk makes it
 * with its stores).
 */
function openKeptEarly(): void {
  if (typeof indexedDB === 'undefined') return;
  const request = indexedDB.open('qupm-last-known');
  request.onupgradeneeded = () => request.transaction?.abort();
  request.onsuccess = () => request.result.close();
}

/**
 * Trigger: a session may be under way, so the kept state is read while the backend loads and says who, and draws
 * first. The embedded backend's session is known at once (a visitor starts signed out); Firebase's is not: there a
 * session begins (the backend knows who, before it has read anything).
 */
export function* whenSessionBegins() {
  const status: AuthStatus = yield select(selectAuthStatus);
  if (__BACKEND__ === 'local' && status !== 'signedOut') {
    openKeptEarly();
    return true;
  }
  const uid: string | null = yield select(selectUid);
  if (!uid) yield take(signedIn.type);
  return true;
}

/** The last known state on this device: drawn at a start, kept from live data, forgotten at sign-out. */
export function* lazyLastKnownSaga() {
  yield* lazySaga({
    name: 'last known state',
    load: loadLastKnownSaga,
    when: whenSessionBegins,
    *start(module: Awaited<ReturnType<typeof loadLastKnownSaga>>) {
      yield call(module.lastKnownSaga);
    },
  });
}

/**
 * The outbox, read marks, message actions, attachments and pages forward. Nothing is lost while the chunk loads: a
 * message sent meanwhile is already in the store's outbox, which the outbox saga sends when it starts.
 */
export function* lazyConversationSaga(backend: Backend) {
  yield* lazySaga({
    name: 'conversation',
    load: loadConversationSagas,
    when: whenSignedIn,
    *start(sagas: Awaited<ReturnType<typeof loadConversationSagas>>) {
      yield all([
        fork(superviseQuietly, 'outbox', sagas.outboxSaga, backend),
        fork(superviseQuietly, 'read marks', sagas.readMarksSaga, backend),
        fork(superviseQuietly, 'receipts and typing', sagas.receiptsSaga, backend),
        fork(superviseQuietly, 'message actions', sagas.messageActionsSaga, backend),
        fork(superviseQuietly, 'attachments', sagas.attachmentsSaga, backend),
        fork(superviseQuietly, 'newer pages', sagas.newerPagesSaga, backend),
        fork(superviseQuietly, 'channel removals', sagas.channelRemovalsSaga, backend),
        fork(superviseQuietly, 'client offers', sagas.clientOffersSaga),
      ]);
    },
  });
}

/**
 * The person's mutes, the tab title's count, in-app notices of live messages off the home screen, and sessions.
 * Nothing is missed while the chunk loads: the mutes are read when their saga starts, the title is computed from
 * the store.
 */
export function* lazyAttentionSaga(backend: Backend) {
  yield* lazySaga({
    name: 'attention',
    load: loadAttentionSagas,
    when: whenSignedIn,
    *start(sagas: Awaited<ReturnType<typeof loadAttentionSagas>>) {
      yield all([
        fork(superviseQuietly, 'mutes', sagas.mutesSaga, backend),
        fork(superviseQuietly, 'tab title', sagas.titleSaga),
        fork(superviseQuietly, 'live notices', sagas.liveNoticesSaga),
        fork(superviseQuietly, 'sessions', sagas.sessionsSaga, backend),
      ]);
    },
  });
}

/** Settings → Your data: download my data, delete my account. */
export function* lazyLeavingSaga(backend: Backend) {
  yield* lazySaga({
    name: 'leaving',
    load: loadLeavingSaga,
    when: whenSignedIn,
    *start(module: Awaited<ReturnType<typeof loadLeavingSaga>>) {
      yield call(module.leavingSaga, backend);
    },
  });
}

/** Settings → Admin (only admins ever open it), at its slice's first action. */
export function* lazyAdminSaga(backend: Backend) {
  yield* lazySaga({
    name: 'admin',
    load: loadAdminSaga,
    when: whenFirstOf('admin'),
    *start(module: Awaited<ReturnType<typeof loadAdminSaga>>, early) {
      yield call(module.adminSaga, backend, early);
    },
  });
}

/** The mailed links (confirm an address, reset a password, change the address), at their slice's first action. */
export function* lazyEmailLinksSaga(backend: Backend) {
  yield* lazySaga({
    name: 'mailed links',
    load: loadEmailLinksSaga,
    when: whenFirstOf('emailLinks'),
    *start(module: Awaited<ReturnType<typeof loadEmailLinksSaga>>, early) {
      yield call(module.emailLinksSaga, backend, early);
    },
  });
}

/** A consultant's channel saves, at their slice's first action (only consultants open the tools). */
export function* lazyConsultantToolsSaga(backend: Backend) {
  yield* lazySaga({
    name: 'consultant tools',
    load: loadConsultantToolsSaga,
    when: whenFirstOf('manage'),
    *start(module: Awaited<ReturnType<typeof loadConsultantToolsSaga>>, early) {
      yield call(module.consultantToolsSaga, backend, early);
    },
  });
}

/** Offers (a client's, a consultant's issued ones, issuing), at their slice's first action: the home asks at once. */
export function* lazyOffersSaga(backend: Backend) {
  yield* lazySaga({
    name: 'offers',
    load: loadOffersSaga,
    when: whenFirstOf('offers'),
    *start(module: Awaited<ReturnType<typeof loadOffersSaga>>, early) {
      yield call(module.offersSaga, backend, early);
    },
  });
}

/** A conversation's pages, at its slice's first action: the view's first request, so the chunk is the view's. */
export function* lazyConversationPagesSaga(backend: Backend) {
  yield* lazySaga({
    name: 'conversation pages',
    load: loadConversationPagesSaga,
    when: whenFirstOf('conversation'),
    *start(module: Awaited<ReturnType<typeof loadConversationPagesSaga>>, early) {
      yield call(module.conversationSaga, backend, early);
    },
  });
}

/**
 * A channel's people and private consultations, at their slice's first action: from the conversation view (or the
 * consultant tools inside it), so the chunk is the view's, already there.
 */
export function* lazyMembersSaga(backend: Backend) {
  yield* lazySaga({
    name: 'members',
    load: loadMembersSaga,
    when: whenFirstOf('members'),
    *start(module: Awaited<ReturnType<typeof loadMembersSaga>>, early) {
      yield call(module.membersSaga, backend, early);
    },
  });
}

/** The debug menu is for iOS only: the rest of the world never downloads it. */
function* whenOnIos() {
  let app: AppState = yield select(selectApp);
  if (!app.started) {
    yield take(started.type);
    app = yield select(selectApp);
  }
  return app.platform === 'ios';
}

export function* lazyDebugMenuSaga() {
  const early: Channel<Action> = yield actionChannel([debugButtonShown.type, debugMenuOpened.type]);
  try {
    yield* lazySaga({
      name: 'iOS debug menu',
      load: loadDebugMenu,
      when: whenOnIos,
      *start({ debugMenuSaga }: Awaited<ReturnType<typeof loadDebugMenu>>) {
        yield fork(debugMenuSaga);
        const missed: Action[] = yield flush(early);
        early.close();
        for (const action of missed) yield put(action);
      },
    });
  } finally {
    early.close();
  }
}
