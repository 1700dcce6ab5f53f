// The store: Redux Toolkit with the saga middleware. DevTools and the serializability and immutability checks
// are on in development only (RTK drops them from production builds), so time-travel works and the
// production bundle carries none of them.
import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import type { Saga } from 'redux-saga';
import type { RootState } from '@/store/reducer';
import { yieldToMain } from '@/platform/browser';
import { rootReducer } from './rootReducer';

export type { RootState };

export interface CreateStoreOptions {
  preloadedState?: Partial<RootState>;
  /** The root saga to run; none in component tests that only need state. */
  rootSaga?: Saga<[]>;
  /**
   * The root saga, asked for in a task after the current one (the app's start-up imports it eagerly: in the same
   * file, evaluated only then); the sagas then start in the task after that. Evaluating the sagas' modules and
   * starting them are each a long task on a slow phone; so is the store's own start before them.
   */
  loadRootSaga?: () => Promise<Saga<[]>>;
}

export function createAppStore({ preloadedState, rootSaga, loadRootSaga }: CreateStoreOptions = {}) {
  const sagaMiddleware = createSagaMiddleware({
    onError: (error) => console.error('A saga failed', error),
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: false }).concat(sagaMiddleware),
    devTools: process.env.NODE_ENV !== 'production' && { name: 'QuPM' },
  });
  if (rootSaga) sagaMiddleware.run(rootSaga);
  else if (loadRootSaga) {
    setTimeout(() => {
      void loadRootSaga().then(async (saga) => {
        await yieldToMain();
        sagaMiddleware.run(saga);
      });
    }, 0);
  }
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
