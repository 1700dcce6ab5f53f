// Every slice of the store, in one reducer.
import { combineReducers } from '@reduxjs/toolkit';
import app from './appSlice';
import auth from './authSlice';
import debug from './debugSlice';
import inbox from './inboxSlice';
import push from './pushSlice';
import swHealth from './swHealthSlice';
import user from './userSlice';
import version from './versionSlice';
import settings from '@/features/settings/settingsSlice';

export const rootReducer = combineReducers({
  app,
  auth,
  user,
  push,
  settings,
  swHealth,
  inbox,
  version,
  debug,
});

export type RootState = ReturnType<typeof rootReducer>;
