// The sagas of mute and attention, one chunk loaded by lazySagas.ts (lazyAttentionSaga) once a session starts.
export { mutesSaga } from '@/sagas/mutesSaga';
export { titleSaga } from '@/sagas/titleSaga';
export { liveNoticesSaga } from '@/sagas/liveNoticesSaga';
// The sessions and password saga rides in this chunk, loaded once a session starts.
export { sessionsSaga } from '@/features/settings/sessionsSaga';
