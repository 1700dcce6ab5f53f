// The person's balances (ARCHITECTURE.md: credits are prepaid consultations, passes are channel passes), shown
// on the home, services and activation screens from the user state, so an activation updates all of them.
import { useAppSelector } from '@/store/hooks';
import { selectUser } from '@/store/userSlice';
import './balances.css';

export function Balances() {
  const { credits, passCount } = useAppSelector(selectUser);
  return (
    <dl className="home__balances" aria-label="Your balance">
      <div className="card">
        <dt>Credits</dt>
        <dd>{credits}</dd>
      </div>
      <div className="card">
        <dt>Channel passes</dt>
        <dd>{passCount}</dd>
      </div>
    </dl>
  );
}
