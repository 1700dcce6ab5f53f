// Attachments in the conversation: the upload of a file the person picked, with its progress
// and Cancel, through an eventChannel over the port (the File never enters the store: it waits in
// pendingFiles.ts); and the files of the messages on screen, read once through the port (members
// only) into object URLs, which are let go when the session ends.
import type { EventChannel } from 'redux-saga';
import { call, put, race, select, take, takeEvery } from 'redux-saga/effects';
import type { Action } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import { toFailure } from '@/backend/errors';
import type { Attachment } from '@core/attachments';
import { takeFile } from './pendingFiles';
import { createUploadChannel, objectUrlOf, revokeObjectUrl } from './uploads';
import type { UploadEvent } from './uploads';
import {
  attachmentFileFailed,
  attachmentFileLoaded,
  attachmentFileRequested,
  attachmentRemoveRequested,
  attachmentUploaded,
  attachmentUploadFailed,
  attachmentUploadProgressed,
  attachmentUploadRequested,
  selectAttachmentFile,
} from './attachmentsSlice';
import type { LoadedFile } from './attachmentsSlice';
import { signedOut } from '@/store/userSlice';
import { forEachSession } from '@/sagas/session';

export const FILE_GONE = 'The file is no longer available on this device. Choose it again.';

/** Reads upload events until the answer, the failure, or a Cancel/Remove of this upload. */
export function* followUpload(uploadId: string, channel: EventChannel<UploadEvent<Attachment>>) {
  try {
    while (true) {
      const { event, removed } = (yield race({
        event: take(channel),
        removed: take(
          (action: Action) => attachmentRemoveRequested.match(action) && action.payload.uploadId === uploadId,
        ),
      })) as { event?: UploadEvent<Attachment>; removed?: unknown };
      if (removed || !event) return;
      if (event.type === 'progress') yield put(attachmentUploadProgressed({ uploadId, sent: event.sent }));
      else if (event.type === 'done') {
        yield put(attachmentUploaded({ uploadId, attachment: event.result }));
        return;
      } else {
        yield put(attachmentUploadFailed({ uploadId, error: toFailure(event.error).message }));
        return;
      }
    }
  } finally {
    // Closing aborts an upload still going (Cancel, a newer file, the session's end).
    channel.close();
  }
}

export function* handleUpload(backend: Backend, action: ReturnType<typeof attachmentUploadRequested>) {
  const { uploadId, channelId, name } = action.payload;
  const file: Blob | undefined = yield call(takeFile, uploadId);
  if (!file) {
    yield put(attachmentUploadFailed({ uploadId, error: FILE_GONE }));
    return;
  }
  const channel: EventChannel<UploadEvent<Attachment>> = yield call(
    createUploadChannel<Attachment>,
    (onProgress, signal) => backend.messages.uploadAttachment(channelId, file, name, { onProgress, signal }),
  );
  yield call(followUpload, uploadId, channel);
}

export function* handleFile(
  backend: Backend,
  urls: Set<string>,
  action: ReturnType<typeof attachmentFileRequested>,
) {
  const { channelId, attachment } = action.payload;
  const known: LoadedFile | undefined = yield select(selectAttachmentFile, attachment.id);
  if (known?.status === 'loaded') return;
  try {
    const blob: Blob = yield call([backend.messages, backend.messages.readAttachment], channelId, attachment);
    const url: string = yield call(objectUrlOf, blob);
    urls.add(url);
    yield put(attachmentFileLoaded({ id: attachment.id, url }));
  } catch (error) {
    yield put(attachmentFileFailed({ id: attachment.id, error: toFailure(error).message }));
  }
}

/** One session's uploads and files; its object URLs are let go when it ends. */
export function* runAttachments(_uid: string, backend: Backend) {
  const urls = new Set<string>();
  try {
    yield takeEvery(attachmentUploadRequested.type, handleUpload, backend);
    yield takeEvery(attachmentFileRequested.type, handleFile, backend, urls);
    yield take(signedOut.type);
  } finally {
    for (const url of urls) yield call(revokeObjectUrl, url);
  }
}

export function* attachmentsSaga(backend: Backend) {
  yield call(forEachSession, runAttachments, backend);
}
