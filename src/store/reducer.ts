// The store's reducer as shared code knows it: the cross-cutting slices, combined here, and the features' slices by
// declaration only, so nothing below src/app imports a feature. A feature names its slice in FeatureSlices when the
// app starts with it (the composition root, src/app/rootReducer.ts, adds it, and the compiler fails there if it does
// not), or in LazyLoadedSlices when the slice injects itself into this reducer as its chunk loads (the shell carries
// none of those; their selectors read the initial state until then).
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
import user from './userSlice';
import live from './liveSlice';
import outbox from './outboxSlice';
import readMarks from './readMarksSlice';
import mutes from './mutesSlice';
import version from './versionSlice';

/** The slices of features the app starts with, each declared by its module (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FeatureSlices {}

/** Slices injected when their chunk loads, each declared by its module (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export const sharedReducer = combineSlices({
  app,
  auth,
  user,
  push,
  channels,
  offers,
  invitations,
  conversation,
  outbox,
  readMarks,
  mutes,
  live,
  swHealth,
  inbox,
  version,
  debug,
}).withLazyLoadedSlices<LazyLoadedSlices & FeatureSlices>();

export type RootState = ReturnType<typeof sharedReducer> & FeatureSlices;
