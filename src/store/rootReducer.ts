// Every slice of the store, in one reducer.
import { combineReducers } from '@reduxjs/toolkit';
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
import messageActions from '@/features/main/messageActionsSlice';
import user from './userSlice';
import live from './liveSlice';
import outbox from './outboxSlice';
import attachments from './attachmentsSlice';
import readMarks from './readMarksSlice';
import mutes from './mutesSlice';
import version from './versionSlice';
import settings from '@/features/settings/settingsSlice';
import admin from '@/features/settings/adminSlice';

export const rootReducer = combineReducers({
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
  attachments,
  readMarks,
  mutes,
  live,
  manage,
  messageActions,
  admin,
  swHealth,
  inbox,
  version,
  debug,
});

export type RootState = ReturnType<typeof rootReducer>;
