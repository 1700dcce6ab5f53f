import { findNonSerializableValue } from '@reduxjs/toolkit';
import { signedOut } from '@/store/userSlice';
import reducer, {
  chunkLoadFailed,
  chunkRecoveryExhausted,
  chunkReloadStarted,
  chunkRetryRequested,
  initialState,
  selectChunkRecovery,
  selectUpdateBannerVisible,
  selectUpdateNotificationsEnabled,
  selectUpdateStatus,
  updateBannerHidden,
  updateBannerShown,
  updateInstalled,
  updateNotificationsRead,
  updateNotificationsToggled,
  updateRestartRequested,
} from '@/store/versionSlice';
import type { VersionState } from '@/store/versionSlice';

const view = (version: VersionState) => ({
  update: selectUpdateStatus({ version }),
  banner: selectUpdateBannerVisible({ version }),
  notices: selectUpdateNotificationsEnabled({ version }),
  chunks: selectChunkRecovery({ version }),
});

describe('version reducer: a new version (spec §2)', () => {
  it('starts current, with update notices off until the setting is read, and no banner', () => {
    expect(view(reducer(undefined, { type: '@@INIT' }))).toEqual({
      update: 'current',
      banner: false,
      notices: false,
      chunks: 'idle',
    });
  });

  it('has a version waiting once a new worker is installed', () => {
    expect(selectUpdateStatus({ version: reducer(initialState, updateInstalled()) })).toBe('waiting');
  });

  it('shows and hides the banner, and hides it when the person restarts into the new version', () => {
    let state = reducer(reducer(initialState, updateInstalled()), updateBannerShown());
    expect(view(state)).toMatchObject({ update: 'waiting', banner: true });
    expect(selectUpdateBannerVisible({ version: reducer(state, updateBannerHidden()) })).toBe(false);
    state = reducer(state, updateRestartRequested());
    expect(view(state)).toMatchObject({ update: 'applying', banner: false });
  });

  it('keeps applying the update when another worker installs meanwhile', () => {
    const applying = reducer(reducer(initialState, updateInstalled()), updateRestartRequested());
    expect(selectUpdateStatus({ version: reducer(applying, updateInstalled()) })).toBe('applying');
  });

  it('follows the setting as read from the device and as the person toggles it', () => {
    let state = reducer(initialState, updateNotificationsRead({ enabled: true }));
    expect(selectUpdateNotificationsEnabled({ version: state })).toBe(true);
    state = reducer(state, updateNotificationsToggled({ enabled: false }));
    expect(selectUpdateNotificationsEnabled({ version: state })).toBe(false);
  });

  it('keeps what it knows of this device across a sign-out', () => {
    const state = reducer(
      reducer(reducer(initialState, updateNotificationsRead({ enabled: true })), updateInstalled()),
      updateBannerShown(),
    );
    expect(reducer(state, signedOut())).toBe(state);
  });
});

describe('version reducer: a route chunk that failed to load (spec §4)', () => {
  it('reloads once, then gives up on the error screen', () => {
    let state = reducer(initialState, chunkReloadStarted());
    expect(selectChunkRecovery({ version: state })).toBe('reloading');
    state = reducer(state, chunkRecoveryExhausted());
    expect(selectChunkRecovery({ version: state })).toBe('failed');
  });

  it('leaves the decisions to the recovery saga: a failure or a retry alone changes nothing', () => {
    const failed = reducer(initialState, chunkRecoveryExhausted());
    expect(reducer(initialState, chunkLoadFailed())).toBe(initialState);
    expect(reducer(failed, chunkRetryRequested())).toBe(failed);
  });

  it('stays serializable', () => {
    const state = reducer(reducer(initialState, updateInstalled()), chunkReloadStarted());
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
