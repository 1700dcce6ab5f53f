// The attachments slice: one upload per composer with its progress and outcome, gone when its
// message is sent or the person removes it; the files read so far; nothing of it survives a sign-out, and all of
// it stays serializable (the File waits outside the store).
import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { Attachment } from '@core/attachments';
import reducer, {
  attachmentFileFailed,
  attachmentFileLoaded,
  attachmentFileRequested,
  attachmentRemoveRequested,
  attachmentUploaded,
  attachmentUploadFailed,
  attachmentUploadProgressed,
  attachmentUploadRequested,
  initialState,
  selectAttachmentFile,
  selectComposerUploads,
  selectUploadById,
} from '@/features/conversation/attachmentsSlice';
import type { AttachmentsState } from '@/features/conversation/attachmentsSlice';
import { messageSendRequested } from '@/store/outboxSlice';
import { signedOut } from '@/store/userSlice';

const A = 'ChannelA000000000001';
const UPLOAD = 'Upload00000000000001';
const photo: Attachment = {
  id: 'Attachment0000000001',
  kind: 'image',
  name: 'photo.png',
  contentType: 'image/png',
  size: 1000,
  width: 40,
  height: 30,
};
const at = (attachments: AttachmentsState) => ({ attachments });
const picked = () =>
  reducer(
    initialState,
    attachmentUploadRequested({ uploadId: UPLOAD, channelId: A, name: 'photo.png', size: 1000 }),
  );

describe('an upload', () => {
  it('starts at nothing sent, and follows its progress up to its size', () => {
    let state = picked();
    expect(selectComposerUploads(at(state), A)[0]).toMatchObject({
      status: 'uploading',
      sent: 0,
      size: 1000,
    });
    state = reducer(state, attachmentUploadProgressed({ uploadId: UPLOAD, sent: 400 }));
    expect(selectUploadById(at(state), UPLOAD)?.sent).toBe(400);
    state = reducer(state, attachmentUploadProgressed({ uploadId: UPLOAD, sent: 5000 }));
    expect(selectUploadById(at(state), UPLOAD)?.sent).toBe(1000);
  });

  it('is ready to send with what the backend answered', () => {
    const state = reducer(picked(), attachmentUploaded({ uploadId: UPLOAD, attachment: photo }));
    expect(selectComposerUploads(at(state), A)[0]).toMatchObject({
      status: 'ready',
      sent: 1000,
      attachment: photo,
    });
  });

  it('says why it failed', () => {
    const state = reducer(
      picked(),
      attachmentUploadFailed({ uploadId: UPLOAD, error: 'This file is empty.' }),
    );
    expect(selectComposerUploads(at(state), A)[0]).toMatchObject({
      status: 'failed',
      error: 'This file is empty.',
    });
  });

  it('is gone when removed or cancelled, and later events of it change nothing', () => {
    let state = reducer(picked(), attachmentRemoveRequested({ uploadId: UPLOAD }));
    expect(selectComposerUploads(at(state), A)[0]).toBeUndefined();
    state = reducer(state, attachmentUploaded({ uploadId: UPLOAD, attachment: photo }));
    expect(state).toEqual(initialState);
  });

  it('leaves the composer when its message is sent with it, not when another message is', () => {
    const ready = reducer(picked(), attachmentUploaded({ uploadId: UPLOAD, attachment: photo }));
    const textOnly = reducer(ready, messageSendRequested({ channelId: A, text: 'hello' }));
    expect(selectComposerUploads(at(textOnly), A)[0]?.status).toBe('ready');
    const withFile = reducer(ready, messageSendRequested({ channelId: A, text: '', attachments: [photo] }));
    expect(selectComposerUploads(at(withFile), A)[0]).toBeUndefined();
  });
});

describe('the files read', () => {
  it('are asked for once, loaded as a URL, or failed with why (and may be asked for again)', () => {
    let state = reducer(initialState, attachmentFileRequested({ channelId: A, attachment: photo }));
    expect(selectAttachmentFile(at(state), photo.id)?.status).toBe('loading');
    state = reducer(state, attachmentFileFailed({ id: photo.id, error: "Can't reach QuPM right now." }));
    expect(selectAttachmentFile(at(state), photo.id)).toEqual({
      status: 'failed',
      url: null,
      error: "Can't reach QuPM right now.",
    });
    state = reducer(state, attachmentFileRequested({ channelId: A, attachment: photo }));
    state = reducer(state, attachmentFileLoaded({ id: photo.id, url: 'blob:qupm/1' }));
    const loaded = reducer(state, attachmentFileRequested({ channelId: A, attachment: photo }));
    expect(selectAttachmentFile(at(loaded), photo.id)).toEqual({
      status: 'loaded',
      url: 'blob:qupm/1',
      error: null,
    });
  });
});

it('forgets everything at sign-out, and is serializable throughout', () => {
  let state = reducer(picked(), attachmentUploaded({ uploadId: UPLOAD, attachment: photo }));
  state = reducer(state, attachmentFileLoaded({ id: photo.id, url: 'blob:qupm/1' }));
  expect(findNonSerializableValue(state)).toBe(false);
  expect(reducer(state, signedOut())).toEqual(initialState);
});
