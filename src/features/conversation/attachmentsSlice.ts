// Attachments on the device: the uploads each channel's composer holds (up to 10; picked, on its
// way with its progress, ready to send, or failed with why), and the files of messages read so far, as object URLs
// the conversation shows. Plain data only: the File itself waits in pendingFiles.ts, the bytes read
// in the browser's memory behind each URL.
import { createSlice } from '@reduxjs/toolkit';
import type { WithSlice } from '@reduxjs/toolkit';
import { sharedReducer } from '@/store/reducer';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { Attachment } from '@core/attachments';
import { messageSendRequested } from '@/store/outboxSlice';
import { signedOut } from '@/store/userSlice';

export interface ComposerUpload {
  /** The id the picked file is held under (pendingFiles.ts). */
  uploadId: string;
  channelId: string;
  name: string;
  size: number;
  /** Bytes sent so far. */
  sent: number;
  status: 'uploading' | 'ready' | 'failed';
  /** What the backend answered once it has the file. */
  attachment: Attachment | null;
  /** Why it failed, in words for the person. */
  error: string | null;
}

export interface LoadedFile {
  status: 'loading' | 'loaded' | 'failed';
  /** An object URL of the bytes, once loaded. */
  url: string | null;
  error: string | null;
}

export interface AttachmentsState {
  /** By channel id: the uploads of that channel's composer, in the order chosen (core ATTACHMENT_COUNT_MAX). */
  uploads: Record<string, ComposerUpload[]>;
  /** By attachment id. */
  files: Record<string, LoadedFile>;
}

export const initialState: AttachmentsState = { uploads: {}, files: {} };

const byUpload = (state: AttachmentsState, uploadId: string): ComposerUpload | undefined =>
  Object.values(state.uploads)
    .flat()
    .find((upload) => upload.uploadId === uploadId);

const attachmentsSlice = createSlice({
  name: 'attachments',
  initialState,
  reducers: {
    /** The person picked (pasted, dropped) a file for the channel's composer: it joins those chosen before. */
    attachmentUploadRequested(
      state,
      action: PayloadAction<{ uploadId: string; channelId: string; name: string; size: number }>,
    ) {
      const { uploadId, channelId, name, size } = action.payload;
      const uploads = state.uploads[channelId] ?? [];
      uploads.push({
        uploadId,
        channelId,
        name,
        size,
        sent: 0,
        status: 'uploading',
        attachment: null,
        error: null,
      });
      state.uploads[channelId] = uploads;
    },
    attachmentUploadProgressed(state, action: PayloadAction<{ uploadId: string; sent: number }>) {
      const upload = byUpload(state, action.payload.uploadId);
      if (upload?.status === 'uploading') upload.sent = Math.min(upload.size, action.payload.sent);
    },
    attachmentUploaded(state, action: PayloadAction<{ uploadId: string; attachment: Attachment }>) {
      const upload = byUpload(state, action.payload.uploadId);
      if (!upload) return;
      upload.status = 'ready';
      upload.sent = upload.size;
      upload.attachment = action.payload.attachment;
    },
    attachmentUploadFailed(state, action: PayloadAction<{ uploadId: string; error: string }>) {
      const upload = byUpload(state, action.payload.uploadId);
      if (!upload) return;
      upload.status = 'failed';
      upload.error = action.payload.error;
    },
    /** Cancel while it uploads, or Remove once it is there: the composer lets go of that file. */
    attachmentRemoveRequested(state, action: PayloadAction<{ uploadId: string }>) {
      const upload = byUpload(state, action.payload.uploadId);
      if (!upload) return;
      const left = (state.uploads[upload.channelId] ?? []).filter((u) => u.uploadId !== upload.uploadId);
      if (left.length > 0) state.uploads[upload.channelId] = left;
      else delete state.uploads[upload.channelId];
    },
    /** The conversation shows a message's file: its bytes are read once. */
    attachmentFileRequested(state, action: PayloadAction<{ channelId: string; attachment: Attachment }>) {
      const { id } = action.payload.attachment;
      const known = state.files[id];
      if (known && known.status !== 'failed') return;
      state.files[id] = { status: 'loading', url: null, error: null };
    },
    attachmentFileLoaded(state, action: PayloadAction<{ id: string; url: string }>) {
      state.files[action.payload.id] = { status: 'loaded', url: action.payload.url, error: null };
    },
    attachmentFileFailed(state, action: PayloadAction<{ id: string; error: string }>) {
      state.files[action.payload.id] = { status: 'failed', url: null, error: action.payload.error };
    },
  },
  extraReducers: (builder) => {
    builder
      // The files went out with the message (the outbox has them now).
      .addCase(messageSendRequested, (state, action) => {
        const sent = new Set((action.payload.attachments ?? []).map((file) => file.id));
        const { channelId } = action.payload;
        const left = (state.uploads[channelId] ?? []).filter(
          (u) => !u.attachment || !sent.has(u.attachment.id),
        );
        if (left.length > 0) state.uploads[channelId] = left;
        else delete state.uploads[channelId];
      })
      .addCase(signedOut, () => initialState);
  },
});

export const {
  attachmentUploadRequested,
  attachmentUploadProgressed,
  attachmentUploaded,
  attachmentUploadFailed,
  attachmentRemoveRequested,
  attachmentFileRequested,
  attachmentFileLoaded,
  attachmentFileFailed,
} = attachmentsSlice.actions;
export default attachmentsSlice.reducer;

// Injected when this module loads (with the part of the app that uses it): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof attachmentsSlice> {}
}
attachmentsSlice.injectInto(sharedReducer);

type WithAttachments = { attachments?: AttachmentsState };

const NO_UPLOADS: ComposerUpload[] = [];

/** The files the channel's composer holds, in the order chosen (the same empty list when none). */
export const selectComposerUploads = (state: WithAttachments, channelId: string): ComposerUpload[] =>
  (state.attachments ?? initialState).uploads[channelId] ?? NO_UPLOADS;

export const selectUploadById = (state: WithAttachments, uploadId: string): ComposerUpload | undefined =>
  byUpload(state.attachments ?? initialState, uploadId);

export const selectAttachmentFile = (state: WithAttachments, id: string): LoadedFile | undefined =>
  (state.attachments ?? initialState).files[id];
