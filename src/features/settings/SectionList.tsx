// The list of settings sections, shown on `/settings` and under an unknown section's message.
import { NavLink } from 'react-router-dom';
import { useAppSelector } from '@/store/hooks';
import { selectIsAdmin } from '@/store/userSlice';
import { ADMIN_SECTIONS, SETTINGS_SECTIONS } from './sections';

export function SectionList() {
  const isAdmin = useAppSelector(selectIsAdmin);
  const sections = SETTINGS_SECTIONS.filter((section) => isAdmin || !ADMIN_SECTIONS.has(section.id));
  return (
    <nav aria-label="Settings sections">
      <ul className="section-list">
        {sections.map((section) => (
          <li key={section.id}>
            <NavLink
              to={`/settings/${section.id}`}
              className={({ isActive }) => (isActive ? 'section-link section-link--active' : 'section-link')}
            >
              <span className="section-link__title">{section.title}</span>
              <span className="section-link__description">{section.description}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
