// Every slice of the store, in one reducer; features add theirs here.
import { combineReducers } from '@reduxjs/toolkit';
import app from './appSlice';

export const rootReducer = combineReducers({ app });

export type RootState = ReturnType<typeof rootReducer>;
