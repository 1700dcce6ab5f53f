// `/settings/:section`: one section; an unknown name gets a clear message and the list of real ones.
import { Link, useParams } from 'react-router-dom';
import { AboutSection } from './AboutSection';
import { SectionList } from './SectionList';
import { SETTINGS_SECTIONS, parseSettingsSection } from './sections';
import type { SettingsSectionId } from './sections';
import './settings.css';

function SignInNeeded({ what }: { what: string }) {
  return (
    <div className="card empty-state">
      <p className="muted">Sign in to manage {what}.</p>
    </div>
  );
}

const SECTION_BODIES: Record<SettingsSectionId, () => React.JSX.Element> = {
  notifications: () => <SignInNeeded what="your notifications" />,
  profile: () => <SignInNeeded what="your profile" />,
  devices: () => <SignInNeeded what="your devices" />,
  about: AboutSection,
};

export function Component() {
  const raw = useParams().section ?? '';
  const section = parseSettingsSection(raw);
  if (section === null) {
    return (
      <section className="screen" aria-labelledby="settings-unknown-title">
        <h1 id="settings-unknown-title">There is no such settings section</h1>
        <p className="muted">
          Settings has no section called <code className="path">{raw}</code>. Choose one of these:
        </p>
        <SectionList />
      </section>
    );
  }
  const meta = SETTINGS_SECTIONS.find((s) => s.id === section)!;
  const Body = SECTION_BODIES[section];
  return (
    <section className="screen" aria-labelledby="settings-section-title">
      <Link className="back-link" to="/settings">
        ‹ Settings
      </Link>
      <h1 id="settings-section-title">{meta.title}</h1>
      <p className="muted">{meta.description}</p>
      <Body />
    </section>
  );
}
