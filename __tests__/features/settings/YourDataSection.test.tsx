/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// Settings → Your data: the download asks once and says where the file went; deleting needs
// the confirm step with the password; once deleted (and signed out) the section says so plainly.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createAppStore } from '@/app/store';
import { YourDataSection } from '@/features/settings/YourDataSection';
import {
  accountDeleted,
  accountDeletionFailed,
  accountDeletionRequested,
  dataExported,
} from '@/features/settings/leavingSlice';
import { signedOut } from '@/store/userSlice';
import { initialState } from '../../sagas/push/support';

function renderSection() {
  const store = createAppStore({ preloadedState: initialState() });
  const seen: Array<{ type: string; payload?: unknown }> = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: { type: string; payload?: unknown }) => {
    seen.push(action);
    return dispatch(action);
  }) as typeof store.dispatch;
  render(
    <Provider store={store}>
      <MemoryRouter>
        <YourDataSection />
      </MemoryRouter>
    </Provider>,
  );
  return { seen, dispatch };
}

describe('YourDataSection', () => {
  it('asks for the download and names the saved file', () => {
    const { seen, dispatch } = renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(seen.map((a) => a.type)).toEqual(['leaving/dataExportRequested']);
    expect(screen.getByRole('button', { name: 'Preparing your file…' })).toHaveProperty('disabled', true);
    act(() => {
      dispatch(dataExported({ fileName: 'qupm-data-2026-11-23.json' }));
    });
    expect(screen.getByText('Saved as qupm-data-2026-11-23.json.')).toBeTruthy();
  });

  it('deletes only after the password is given in the confirm step, and shows a refusal', () => {
    const { seen, dispatch } = renderSection();
    expect(screen.queryByLabelText('Your password, to confirm')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account…' }));
    const confirm = screen.getByRole('button', { name: 'Delete my account for good' });
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Your password, to confirm'), {
      target: { value: 'my password' },
    });
    fireEvent.click(confirm);
    expect(seen).toEqual([accountDeletionRequested({ password: 'my password' })]);
    act(() => {
      dispatch(accountDeletionFailed({ message: 'That password is not right.' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('That password is not right.');
  });

  it('says plainly that the account is gone once deleted and signed out', () => {
    const { dispatch } = renderSection();
    act(() => {
      dispatch(signedOut());
      dispatch(accountDeleted());
    });
    expect(screen.getByRole('heading', { name: 'Your account has been deleted' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the start' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: 'Download my data' })).toBeNull();
  });
});
