// Settings → Profile's picture: the face the person has now (their document's photoURL), and setting or removing
// it. Injected when its module loads (with the settings screen or its saga's chunk), so the shell carries none of
// it. The picture itself never enters the store (a Blob is not serializable): the screen holds it in
// pendingPhoto.ts under an id, and the saga takes it from there.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import { sharedReducer } from '@/store/reducer';
import { docChanged, signedOut } from '@/store/userSlice';

export type PhotoStatus = 'idle' | 'loading' | 'saving' | 'removing' | 'saved' | 'removed' | 'failed';

export interface PhotoState {
  status: PhotoStatus;
  /** The person's face as their document says; null: none (initials), or not read yet. */
  url: string | null;
  error: string | null;
}

export const initialState: PhotoState = { status: 'idle', url: null, error: null };

const photoSlice = createSlice({
  name: 'photo',
  initialState,
  reducers: {
    /** The screen opened: read the face there is. */
    photoRequested(state) {
      if (state.status === 'idle') state.status = 'loading';
    },
    photoLoaded(state, action: PayloadAction<{ url: string | null }>) {
      state.url = action.payload.url;
      if (state.status === 'loading') state.status = 'idle';
    },
    /** "Use this picture": the cropped, scaled picture held in pendingPhoto.ts under `pictureId`. */
    photoSaveRequested(state, _action: PayloadAction<{ pictureId: string }>) {
      state.status = 'saving';
      state.error = null;
    },
    photoSaved(state, action: PayloadAction<{ url: string | null }>) {
      state.status = 'saved';
      state.url = action.payload.url;
    },
    photoRemoveRequested(state) {
      state.status = 'removing';
      state.error = null;
    },
    photoRemoved(state) {
      state.status = 'removed';
      state.url = null;
    },
    /** Refused or failed (the file, the network, the backend): words for the person. */
    photoFailed(state, action: PayloadAction<{ message: string }>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    // Another window (or device) changed it: the document is the truth.
    builder.addCase(docChanged, (state, action) => {
      state.url = action.payload.doc.photoURL ?? null;
    });
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  photoRequested,
  photoLoaded,
  photoSaveRequested,
  photoSaved,
  photoRemoveRequested,
  photoRemoved,
  photoFailed,
} = photoSlice.actions;
export default photoSlice.reducer;

declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof photoSlice> {}
}
photoSlice.injectInto(sharedReducer);

interface WithPhoto {
  photo?: PhotoState;
}
export const selectPhoto = (state: WithPhoto): PhotoState => state.photo ?? initialState;
