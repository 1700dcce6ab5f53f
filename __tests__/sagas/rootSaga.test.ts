import { put, take } from 'redux-saga/effects';
import { createRootSaga } from '@/sagas/rootSaga';
import { createAppStore } from '@/store';
import { connectivityChanged } from '@/store/appSlice';

describe('rootSaga', () => {
  it('keeps the other sagas running when one of them fails', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    function* failing() {
      yield take('test/boom');
      throw new Error('boom');
    }
    function* echo() {
      while (true) {
        yield take('test/ping');
        yield put(connectivityChanged({ online: false }));
      }
    }
    const store = createAppStore({ rootSaga: createRootSaga([failing, echo]) });
    store.dispatch({ type: 'test/boom' });
    expect(errors).toHaveBeenCalled();
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(false);
  });
});

describe('createAppStore with deferSagas', () => {
  it('starts the sagas in a task after the current one, not during store creation', async () => {
    function* echo() {
      while (true) {
        yield take('test/ping');
        yield put(connectivityChanged({ online: false }));
      }
    }
    const store = createAppStore({ rootSaga: createRootSaga([echo]), deferSagas: true });
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(true); // nobody listened yet
    await new Promise((resolve) => setTimeout(resolve, 0));
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(false);
  });
});
