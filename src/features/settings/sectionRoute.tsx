// `/settings/:section`: one section; an unknown name gets a clear message and the list of real ones.
import { Link, useParams } from 'react-router-dom';
import { useAppSelector } from '@/store/hooks';
import { selectAuthStatus } from '@/store/userSlice';
import { AuthForm } from '@/ui/AuthForm';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { AboutSection } from './AboutSection';
import { AdminSection } from './AdminSection';
import { ChangeEmailSection } from './ChangeEmailSection';
import { ChangePasswordSection } from './ChangePasswordSection';
import { DevicesSection } from './DevicesSection';
import { EmailVerification } from './EmailVerification';
import { MissedMailSwitch } from './MissedMailSwitch';
import { NotificationsSection } from './NotificationsSection';
import { ProfileSection } from './ProfileSection';
import { ReadReceiptsSwitch } from './ReadReceiptsSwitch';
import { PhotoSection } from './PhotoSection';
import { SectionList } from './SectionList';
import { YourDataSection } from './YourDataSection';
import { SessionsSection } from './SessionsSection';
import { SETTINGS_SECTIONS, parseSettingsSection } from './sections';
import type { SettingsSectionId } from './sections';
import './settings.css';

/** A section that belongs to an account: shown signed in, a sign-in form otherwise. */
function Personal({ what, children }: { what: string; children: React.ReactNode }) {
  const status = useAppSelector(selectAuthStatus);
  if (status === 'unknown' || status === 'loading') return <LoadingScreen inline />;
  if (status === 'signedOut') return <AuthForm title="Sign in" lead={`Sign in to manage ${what}.`} />;
  return <>{children}</>;
}

const SECTION_BODIES: Record<SettingsSectionId, () => React.JSX.Element> = {
  notifications: () => (
    <Personal what="your notifications">
      <NotificationsSection />
      <MissedMailSwitch />
    </Personal>
  ),
  profile: () => (
    <Personal what="your profile">
      <PhotoSection />
      <ProfileSection />
      <EmailVerification />
      <ChangeEmailSection />
      <ChangePasswordSection />
      <ReadReceiptsSwitch />
    </Personal>
  ),
  devices: () => (
    <Personal what="your devices">
      <DevicesSection />
      <SessionsSection />
    </Personal>
  ),
  data: YourDataSection,
  about: AboutSection,
  admin: () => (
    <Personal what="QuPM as an admin">
      <AdminSection />
    </Personal>
  ),
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
