// Bootstrap: the store with its sagas, the router, and React taking over the pre-rendered loading screen.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/AppRoot';
import { createAppRouter } from './app/router';
import { createAppStore } from './store';
import { rootSaga } from './sagas/rootSaga';
import './app/global.css';

const store = createAppStore({ rootSaga });
const router = createAppRouter();
const container = document.getElementById('root');

if (container) {
  createRoot(container).render(
    <StrictMode>
      <AppRoot store={store} router={router} />
    </StrictMode>,
  );
}
