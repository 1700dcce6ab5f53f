// `/settings`: the sections to choose from.
import { Link } from 'react-router-dom';
import { useAppSelector } from '@/store/hooks';
import { selectAuthStatus } from '@/store/userSlice';
import { SectionList } from './SectionList';
import './settings.css';

export function Component() {
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <SectionList />
      {signedIn && (
        <Link className="button settings__signout" to="/logout">
          Sign out
        </Link>
      )}
    </section>
  );
}
