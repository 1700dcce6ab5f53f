// The conversation's device-side machinery (issue #11): the outbox with its drafts, and read marks, with the
// IndexedDB store under them; and the edits and deletions of one's messages (issue #13 part 3). Loaded in a chunk of its own once someone signs in (src/sagas/lazyConversation.ts),
// so the first screen of a visitor carries none of it.
export { outboxSaga } from './outboxSaga';
export { readMarksSaga } from './readMarksSaga';
export { watchMessageActions as messageActionsSaga } from '@/features/main/messageActionsSaga';
