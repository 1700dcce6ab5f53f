// Typed react-redux hooks: screens use these, never the untyped ones. The store is made by the composition root
// (src/app/store.ts); its dispatch takes plain actions (no thunks: sagas do the work).
import { useDispatch, useSelector } from 'react-redux';
import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import type { RootState } from './reducer';

export const useAppDispatch = useDispatch.withTypes<Dispatch<UnknownAction>>();
export const useAppSelector = useSelector.withTypes<RootState>();
