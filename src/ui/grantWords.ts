// What an invitation grants, in words: its own module, so that a screen naming the grant (the home screen's
// invitations) does not carry the invitation screens' views with it.
export function grantWords({ passes, credits }: { passes: number; credits: number }): string {
  const parts = [
    passes > 0 ? `${passes} channel pass${passes === 1 ? '' : 'es'}` : null,
    credits > 0 ? `${credits} credit${credits === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' and ') : 'access to the channel';
}
