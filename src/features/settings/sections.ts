// The settings sections: `/settings/:section` accepts exactly these names.
export const SETTINGS_SECTIONS = [
  { id: 'notifications', title: 'Notifications', description: 'Push notifications and how they reach you.' },
  { id: 'profile', title: 'Profile', description: 'Your picture, nickname, email address and password.' },
  {
    id: 'devices',
    title: 'Devices',
    description: 'Where you are signed in, and which devices get notifications.',
  },
  {
    id: 'data',
    title: 'Your data',
    description: 'Download everything QuPM keeps about you, or delete your account.',
  },
  { id: 'about', title: 'About', description: 'Version, backend, install and offline state of this app.' },
  { id: 'admin', title: 'Admin', description: 'Users and their roles, and every channel. Admins only.' },
] as const;

/** Sections only an admin (isAdmin claim, spec §6) sees. */
export const ADMIN_SECTIONS: ReadonlySet<SettingsSectionId> = new Set(['admin']);

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

export function parseSettingsSection(value: unknown): SettingsSectionId | null {
  return SETTINGS_SECTIONS.find((section) => section.id === value)?.id ?? null;
}
