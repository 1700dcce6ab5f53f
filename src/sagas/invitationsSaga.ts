// Invitations: reading one, accepting it (joins the channel) and activating it (grants its passes
// and credits: the user document that comes back updates the balances at once), and a consultant creating
// and listing a channel's invitations. Failures keep their status and reason for the screens' words.
// While someone is signed in, the invitations addressed to them are kept live: whenever the backend
// says they changed — created, or accepted in another window — what is shown is read again: the list on the
// home screen and the invitation the person is looking at.
import type { EventChannel } from 'redux-saga';
import { call, put, select, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Backend, InvitationsPort } from '@/backend/ports';
import type { InvitationPreview } from '@core/invitations';
import type { Invitation, UserDoc } from '@core/model';
import {
  acceptFailed,
  accepted,
  acceptRequested,
  activated,
  activateFailed,
  activateRequested,
  channelInvitationsFailed,
  channelInvitationsLoaded,
  channelInvitationsRequested,
  invitationCreated,
  invitationCreateFailed,
  invitationCreateRequested,
  invitationFailed,
  invitationLoaded,
  invitationRequested,
  myInvitationsFailed,
  myInvitationsLoaded,
  myInvitationsRequested,
  previewFailed,
  previewLoaded,
  previewRequested,
  selectMyInvitations,
  selectViewedInvitation,
} from '@/store/invitationsSlice';
import type { InvitationsState } from '@/store/invitationsSlice';
import { overviewRequested } from '@/store/channelsSlice';
import { docChanged } from '@/store/userSlice';
import { toFailure } from '@/backend/errors';
import { forEachSession, keepingChannel } from './session';
import { supervise } from './supervise';

export function createMyInvitationsChannel(invitations: InvitationsPort): EventChannel<{ changed: true }> {
  return keepingChannel((emit) => invitations.subscribeMyInvitations(() => emit({ changed: true })));
}

export function* handleInvitationRequested(backend: Backend, action: ReturnType<typeof invitationRequested>) {
  const { id } = action.payload;
  try {
    const invitation: Invitation = yield call([backend.invitations, backend.invitations.getInvitation], id);
    yield put(invitationLoaded({ invitation }));
  } catch (error) {
    yield put(invitationFailed({ id, error: toFailure(error) }));
  }
}

/** The invitation's public preview (no session needed): what a signed-out visitor of the link is shown. */
export function* handlePreviewRequested(backend: Backend, action: ReturnType<typeof previewRequested>) {
  const { id } = action.payload;
  try {
    const preview: InvitationPreview = yield call(
      [backend.invitations, backend.invitations.previewInvitation],
      id,
    );
    yield put(previewLoaded({ preview }));
  } catch (error) {
    yield put(previewFailed({ id, error: toFailure(error) }));
  }
}

export function* handleAccept(backend: Backend, action: ReturnType<typeof acceptRequested>) {
  try {
    const invitation: Invitation = yield call(
      [backend.invitations, backend.invitations.acceptInvitation],
      action.payload.id,
    );
    yield put(accepted({ invitation }));
    // The person is now a member: their channel list gains the channel.
    yield put(overviewRequested());
  } catch (error) {
    yield put(acceptFailed({ id: action.payload.id, error: toFailure(error) }));
  }
}

export function* handleActivate(backend: Backend, action: ReturnType<typeof activateRequested>) {
  try {
    const result: { invitation: Invitation; user: UserDoc } = yield call(
      [backend.invitations, backend.invitations.activateInvitation],
      action.payload.id,
    );
    yield put(docChanged({ doc: result.user }));
    yield put(activated({ invitation: result.invitation }));
  } catch (error) {
    yield put(activateFailed({ id: action.payload.id, error: toFailure(error) }));
  }
}

export function* handleInvitationCreate(
  backend: Backend,
  action: ReturnType<typeof invitationCreateRequested>,
) {
  try {
    const invitation: Invitation = yield call(
      [backend.invitations, backend.invitations.createInvitation],
      action.payload,
    );
    yield put(invitationCreated({ invitation }));
  } catch (error) {
    yield put(invitationCreateFailed({ message: toFailure(error).message }));
  }
}

export function* handleChannelInvitations(
  backend: Backend,
  action: ReturnType<typeof channelInvitationsRequested>,
) {
  const { channelId } = action.payload;
  try {
    const items: Invitation[] = yield call(
      [backend.invitations, backend.invitations.listChannelInvitations],
      channelId,
    );
    yield put(channelInvitationsLoaded({ channelId, items }));
  } catch (error) {
    yield put(channelInvitationsFailed({ channelId, message: toFailure(error).message }));
  }
}

export function* handleMyInvitationsRequested(backend: Backend) {
  try {
    const items: Invitation[] = yield call([backend.invitations, backend.invitations.listMyInvitations]);
    yield put(myInvitationsLoaded({ items }));
  } catch (error) {
    yield put(myInvitationsFailed({ message: toFailure(error).message }));
  }
}

/** The invitations addressed to the person may have changed: what a screen shows of them is read again. */
export function* refreshMyInvitations() {
  const mine: InvitationsState['mine'] = yield select(selectMyInvitations);
  if (mine.status !== 'idle') yield put(myInvitationsRequested());
  const viewed: InvitationsState['viewed'] = yield select(selectViewedInvitation);
  if (viewed.id !== null && viewed.status === 'loaded') yield put(invitationRequested({ id: viewed.id }));
}

/** While signed in: the backend's "your invitations changed" reads them again. */
export function* watchMyInvitations(backend: Backend) {
  const channel: EventChannel<{ changed: true }> = yield call(
    createMyInvitationsChannel,
    backend.invitations,
  );
  try {
    while (true) {
      yield take(channel);
      yield call(refreshMyInvitations);
    }
  } finally {
    channel.close();
  }
}

/** One signed-in session: the invitations addressed to the person kept live. */
export function* runMyInvitations(_uid: string, backend: Backend) {
  yield call(supervise, 'invitations', watchMyInvitations, backend);
}

type InvitationStepAction = ReturnType<typeof acceptRequested> | ReturnType<typeof activateRequested>;

/**
 * Runs `worker` for each request, but only one at a time per invitation: accept and activate are single-use, so a
 * second press on the same invitation while one runs is ignored, while another invitation the person opened in the
 * meantime is never held back by the first one's request.
 */
export function leadingPerInvitation<A extends InvitationStepAction>(
  type: A['type'],
  worker: (backend: Backend, action: A) => Generator,
  backend: Backend,
) {
  const running = new Set<string>();
  return takeEvery(type, function* perInvitation(action: A) {
    const { id } = action.payload;
    if (running.has(id)) return;
    running.add(id);
    try {
      yield call(worker, backend, action);
    } finally {
      running.delete(id);
    }
  });
}

export function* invitationsSaga(backend: Backend) {
  yield takeLatest(invitationRequested.type, handleInvitationRequested, backend);
  yield takeLatest(previewRequested.type, handlePreviewRequested, backend);
  yield leadingPerInvitation(acceptRequested.type, handleAccept, backend);
  yield leadingPerInvitation(activateRequested.type, handleActivate, backend);
  yield takeLeading(invitationCreateRequested.type, handleInvitationCreate, backend);
  yield takeLatest(channelInvitationsRequested.type, handleChannelInvitations, backend);
  yield takeLatest(myInvitationsRequested.type, handleMyInvitationsRequested, backend);
  yield call(forEachSession, runMyInvitations, backend);
}
