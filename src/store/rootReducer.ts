// Every slice of the store, in one reducer.
import { combineReducers } from '@reduxjs/toolkit';
import app from './appSlice';
import auth from './authSlice';
import push from './pushSlice';
import user from './userSlice';
import settings from '@/features/settings/settingsSlice';

export const rootReducer = combineReducers({ app, auth, user, push, settings });

export type RootState = ReturnType<typeof rootReducer>;
