// The conversation's device-side machinery: the outbox with its drafts and read marks, with the
// IndexedDB store under them; the edits and deletions of one's messages and attachments, and pages forward through a
// long channel with the window's rules. Loaded in a
// chunk of its own once someone signs in (src/app/lazySagas.ts), so the first screen of a visitor
// carries none of it.
export { outboxSaga } from './outboxSaga';
export { readMarksSaga } from './readMarksSaga';
export { receiptsSaga } from './receiptsSaga';
export { watchMessageActions as messageActionsSaga } from './messageActionsSaga';
export { attachmentsSaga } from './attachmentsSaga';
export { newerPagesSaga } from './newerPagesSaga';
export { channelRemovalsSaga } from '@/sagas/channelRemovalsSaga';
export { clientOffersSaga } from './clientOffersSaga';
