// The attachments saga, with the backend faked at its port: a picked file is taken out of
// pendingFiles and uploaded with its progress into the store; Cancel aborts the upload in flight; a refusal is
// shown in the backend's words; a message's file is read once into an object URL, released at sign-out.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import type { Attachment } from '@core/attachments';
import { ATTACHMENT_MESSAGES } from '@core/attachments';
import { BackendError } from '@/backend/ports';
import type { Backend, UploadOptions } from '@/backend/ports';
import { holdFile, takeFile } from '@/features/conversation/pendingFiles';
import { objectUrlOf, revokeObjectUrl } from '@/features/conversation/uploads';
import { FILE_GONE, handleFile, handleUpload, runAttachments } from '@/features/conversation/attachmentsSaga';
import {
  attachmentFileRequested,
  attachmentRemoveRequested,
  attachmentUploadRequested,
  selectAttachmentFile,
  selectComposerUploads,
} from '@/features/conversation/attachmentsSlice';
import { rootReducer } from '@/app/rootReducer';
import { signedOut } from '@/store/userSlice';
import { createFakeBackend } from '../../support/fakeBackend';

const A = 'ChannelA000000000001';
const photo: Attachment = {
  id: 'Attachment0000000001',
  kind: 'image',
  name: 'photo.png',
  contentType: 'image/png',
  size: 4,
  width: 2,
  height: 2,
};

function pick(file: Blob = new Blob(['abcd'])) {
  const uploadId = holdFile(file);
  return attachmentUploadRequested({ uploadId, channelId: A, name: 'photo.png', size: file.size });
}

describe('handleUpload', () => {
  it('uploads the held file with its progress, and the composer has it ready to send', async () => {
    const backend = createFakeBackend();
    backend.messages.uploadAttachment.mockImplementation(
      async (_channel: string, _file: Blob, _name: string, options?: UploadOptions) => {
        options?.onProgress?.(2, 4);
        options?.onProgress?.(4, 4);
        return photo;
      },
    );
    const action = pick();
    const { storeState } = await expectSaga(handleUpload, backend as unknown as Backend, action)
      .withReducer(rootReducer, rootReducer(undefined, action))
      .run({ silenceTimeout: true });
    expect(backend.messages.uploadAttachment.mock.calls[0]?.slice(0, 3)).toEqual([
      A,
      expect.any(Blob),
      'photo.png',
    ]);
    expect(selectComposerUploads(storeState, A)[0]).toMatchObject({
      status: 'ready',
      sent: 4,
      attachment: photo,
    });
    // The file is not held any more.
    expect(takeFile(action.payload.uploadId)).toBeUndefined();
  });

  it('shows a refusal in the backend’s words', async () => {
    const backend = createFakeBackend();
    backend.messages.uploadAttachment.mockRejectedValue(
      new BackendError('INVALID_ARGUMENT', ATTACHMENT_MESSAGES.notAllowed),
    );
    const action = pick();
    const { storeState } = await expectSaga(handleUpload, backend as unknown as Backend, action)
      .withReducer(rootReducer, rootReducer(undefined, action))
      .run({ silenceTimeout: true });
    expect(selectComposerUploads(storeState, A)[0]).toMatchObject({
      status: 'failed',
      error: ATTACHMENT_MESSAGES.notAllowed,
    });
  });

  it('aborts the upload in flight when the person cancels it', async () => {
    const backend = createFakeBackend();
    let signal: AbortSignal | undefined;
    backend.messages.uploadAttachment.mockImplementation(
      (_channel: string, _file: Blob, _name: string, options?: UploadOptions) =>
        new Promise<Attachment>(() => {
          signal = options?.signal;
        }),
    );
    const action = pick();
    const { storeState } = await expectSaga(handleUpload, backend as unknown as Backend, action)
      .withReducer(rootReducer, rootReducer(undefined, action))
      .delay(10)
      .dispatch(attachmentRemoveRequested({ uploadId: action.payload.uploadId }))
      .run({ silenceTimeout: true });
    expect(signal?.aborted).toBe(true);
    expect(selectComposerUploads(storeState, A)[0]).toBeUndefined();
  });

  it('says so when the file is no longer on this device', async () => {
    const backend = createFakeBackend();
    const action = attachmentUploadRequested({
      uploadId: 'NotHeld0000000000001',
      channelId: A,
      name: 'x.png',
      size: 1,
    });
    const { storeState } = await expectSaga(handleUpload, backend as unknown as Backend, action)
      .withReducer(rootReducer, rootReducer(undefined, action))
      .run({ silenceTimeout: true });
    expect(selectComposerUploads(storeState, A)[0]).toMatchObject({ status: 'failed', error: FILE_GONE });
    expect(backend.messages.uploadAttachment).not.toHaveBeenCalled();
  });
});

describe('handleFile', () => {
  it('reads a message’s file into an object URL', async () => {
    const backend = createFakeBackend();
    backend.messages.readAttachment.mockResolvedValue(new Blob(['png']));
    const action = attachmentFileRequested({ channelId: A, attachment: photo });
    const urls = new Set<string>();
    const { storeState } = await expectSaga(handleFile, backend as unknown as Backend, urls, action)
      .withReducer(rootReducer, rootReducer(undefined, action))
      .provide([[matchers.call.fn(objectUrlOf), 'blob:qupm/1']])
      .run({ silenceTimeout: true });
    expect(backend.messages.readAttachment).toHaveBeenCalledWith(A, photo);
    expect(selectAttachmentFile(storeState, photo.id)).toEqual({
      status: 'loaded',
      url: 'blob:qupm/1',
      error: null,
    });
    expect([...urls]).toEqual(['blob:qupm/1']);
  });

  it('says why a file could not be read', async () => {
    const backend = createFakeBackend();
    backend.messages.readAttachment.mockRejectedValue(
      new BackendError('PERMISSION_DENIED', 'Only the members of this channel can send or open its files.'),
    );
    const action = attachmentFileRequested({ channelId: A, attachment: photo });
    const { storeState } = await expectSaga(
      handleFile,
      backend as unknown as Backend,
      new Set<string>(),
      action,
    )
      .withReducer(rootReducer, rootReducer(undefined, action))
      .run({ silenceTimeout: true });
    expect(selectAttachmentFile(storeState, photo.id)).toMatchObject({
      status: 'failed',
      error: 'Only the members of this channel can send or open its files.',
    });
  });
});

describe('runAttachments', () => {
  it('lets go of the files it read when the session ends', async () => {
    const backend = createFakeBackend();
    backend.messages.readAttachment.mockResolvedValue(new Blob(['png']));
    await expectSaga(runAttachments, 'uidMe000000000000001', backend as unknown as Backend)
      .withReducer(rootReducer)
      .provide([
        [matchers.call.fn(objectUrlOf), 'blob:qupm/7'],
        [matchers.call.fn(revokeObjectUrl), undefined],
      ])
      .dispatch(attachmentFileRequested({ channelId: A, attachment: photo }))
      .delay(5)
      .dispatch(signedOut())
      .call(revokeObjectUrl, 'blob:qupm/7')
      .run({ silenceTimeout: true });
  });
});
