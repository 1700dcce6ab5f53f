// `/logout`: signs out and lands on `/`.
import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthStatus } from '@/store/userSlice';
import { signOutRequested } from '@/store/authSlice';
import { LoadingScreen } from '@/ui/LoadingScreen';

export function Component() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectAuthStatus);
  const signedIn = status === 'signedIn' || status === 'loading';
  useEffect(() => {
    if (signedIn) dispatch(signOutRequested());
  }, [dispatch, signedIn]);
  if (status === 'signedOut') return <Navigate to="/" replace />;
  return <LoadingScreen inline />;
}
