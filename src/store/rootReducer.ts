// Every slice of the store, in one reducer.
import { combineReducers } from '@reduxjs/toolkit';
import app from './appSlice';
import auth from './authSlice';
import user from './userSlice';
import settings from '@/features/settings/settingsSlice';

export const rootReducer = combineReducers({ app, auth, user, settings });

export type RootState = ReturnType<typeof rootReducer>;
