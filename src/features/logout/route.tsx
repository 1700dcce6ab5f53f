// `/logout`: signs out and lands on `/`. The sign-out itself joins when sessions exist (issue #3).
import { Navigate } from 'react-router-dom';

export function Component() {
  return <Navigate to="/" replace />;
}
