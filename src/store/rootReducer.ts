// Every slice of the store, in one reducer. The slices of parts that load on demand (a conversation's edits and
// attachments, the admin section) are injected when their chunk loads (each slice's module injects itself), so
// the shell carries none of their code; their selectors read the initial state until then.
import { combineSlices } from '@reduxjs/toolkit';
import app from './appSlice';
import auth from './authSlice';
import debug from './debugSlice';
import inbox from './inboxSlice';
import push from './pushSlice';
import swHealth from './swHealthSlice';
import channels from './channelsSlice';
import offers from './offersSlice';
import invitations from './invitationsSlice';
import conversation from './conversationSlice';
import manage from '@/features/main/manageSlice';
import user from './userSlice';
import live from './liveSlice';
import outbox from './outboxSlice';
import readMarks from './readMarksSlice';
import mutes from './mutesSlice';
import version from './versionSlice';
import settings from '@/features/settings/settingsSlice';

/** Filled in by each lazily injected slice's module (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices({
  app,
  auth,
  user,
  push,
  settings,
  channels,
  offers,
  invitations,
  conversation,
  outbox,
  readMarks,
  mutes,
  live,
  manage,
  swHealth,
  inbox,
  version,
  debug,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;
