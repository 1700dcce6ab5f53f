// The sagas of mute and attention (issue #13 part 6), one chunk loaded by lazyAttention.ts once a session starts.
export { mutesSaga } from './mutesSaga';
export { titleSaga } from './titleSaga';
export { liveNoticesSaga } from './liveNoticesSaga';
