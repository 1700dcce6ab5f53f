// A real store with the real saga middleware for tests of supervision: redux-saga-test-plan's expectSaga fails a
// run on any error thrown in a forked task, so it cannot show that a supervisor catches one. Every dispatched
// action is recorded; time is Jest's fake timers (redux-saga's delay is a setTimeout).
import { configureStore } from '@reduxjs/toolkit';
import type { Middleware } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import type { Saga, Task } from 'redux-saga';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';

export function runWithStore(saga: Saga, args: unknown[] = [], preloadedState?: Partial<RootState>) {
  const actions: Array<{ type: string; payload?: unknown }> = [];
  const record: Middleware = () => (next) => (action) => {
    actions.push(action as { type: string; payload?: unknown });
    return next(action);
  };
  const sagaMiddleware = createSagaMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault({ thunk: false }).concat(record, sagaMiddleware),
  });
  const task: Task = sagaMiddleware.run(saga, ...args);
  return { store, task, actions, types: () => actions.map((action) => action.type) };
}
