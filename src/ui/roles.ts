// How each role of spec §6 is named to a person.
export const ROLE_NAMES = { admin: 'Admin', consultant: 'Consultant', user: 'Member' } as const;
