// Every slice of the store, in one reducer. The slices of parts that load on demand (a conversation's edits and
// attachments, the admin section) are injected when their chunk loads (each slice's module injects itself), so
// the shell carries none of their code; their selectors read the initial state until then.
import { combineSlices } from '@reduxjs/toolkit';
import app from '@/store/appSlice';
import auth from '@/store/authSlice';
import debug from '@/store/debugSlice';
import inbox from '@/store/inboxSlice';
import push from '@/store/pushSlice';
import swHealth from '@/store/swHealthSlice';
import channels from '@/store/channelsSlice';
import offers from '@/store/offersSlice';
import invitations from '@/store/invitationsSlice';
import conversation from '@/store/conversationSlice';
import manage from '@/features/consultantTools/manageSlice';
import user from '@/store/userSlice';
import live from '@/store/liveSlice';
import members from '@/store/membersSlice';
import outbox from '@/store/outboxSlice';
import readMarks from '@/store/readMarksSlice';
import mutes from '@/store/mutesSlice';
import version from '@/store/versionSlice';
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
  members,
  manage,
  swHealth,
  inbox,
  version,
  debug,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;
