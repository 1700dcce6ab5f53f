// Invitations (issue #6): reading one, accepting it (joins the channel) and activating it (grants its passes
// and credits: the user document that comes back updates the balances at once), and a consultant creating
// and listing a channel's invitations. Failures keep their status and reason for the screens' words.
import { call, put, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
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
} from '@/store/invitationsSlice';
import { overviewRequested } from '@/store/channelsSlice';
import { docChanged } from '@/store/userSlice';
import { toFailure } from '@/backend/errors';

export function* handleInvitationRequested(backend: Backend, action: ReturnType<typeof invitationRequested>) {
  const { id } = action.payload;
  try {
    const invitation: Invitation = yield call([backend.invitations, backend.invitations.getInvitation], id);
    yield put(invitationLoaded({ invitation }));
  } catch (error) {
    yield put(invitationFailed({ id, error: toFailure(error) }));
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
    yield put(acceptFailed({ error: toFailure(error) }));
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
    yield put(activateFailed({ error: toFailure(error) }));
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

export function* invitationsSaga(backend: Backend) {
  yield takeLatest(invitationRequested.type, handleInvitationRequested, backend);
  // Accept and activate are single-use: a second press while one runs is ignored.
  yield takeLeading(acceptRequested.type, handleAccept, backend);
  yield takeLeading(activateRequested.type, handleActivate, backend);
  yield takeLeading(invitationCreateRequested.type, handleInvitationCreate, backend);
  yield takeLatest(channelInvitationsRequested.type, handleChannelInvitations, backend);
}
