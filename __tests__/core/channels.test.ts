// Channel rules of core/channels.ts that the client's forms share: the handle's shape (the schema and the new-channel form
// share it) and a consultant not inviting their own email (core/email.ts sameEmail).
import { CHANNEL_HANDLE_PATTERN, assertInviteeIsSomeoneElse } from '@core/channels';
import { QupmError } from '@core/errors';
import { channelHandleSchema } from '@core/schemas';
import { checkNewChannel } from '@/features/consultantTools/NewChannelForm';

describe('CHANNEL_HANDLE_PATTERN', () => {
  it.each([
    ['growth-clinic', true],
    ['a1-b2-c3', true],
    ['Growth', false],
    ['-lead', false],
    ['trail-', false],
    ['two--dashes', false],
    ['under_score', false],
  ])('%s → %s', (handle, expected) => {
    expect(CHANNEL_HANDLE_PATTERN.test(handle)).toBe(expected);
    // The schema and the form add only the length bounds (3 to 40, all these are within).
    expect(channelHandleSchema.safeParse(handle).success).toBe(expected);
    expect(checkNewChannel('A title', handle) === null).toBe(expected);
  });
});

describe('assertInviteeIsSomeoneElse', () => {
  const caller = { email: 'dana@example.com' };

  it.each(['dana@example.com', ' Dana@Example.COM '])('refuses the consultant’s own email (%j)', (email) => {
    expect(() => assertInviteeIsSomeoneElse(email, caller)).toThrow(QupmError);
    expect(() => assertInviteeIsSomeoneElse(email, caller)).toThrow(
      'inviteeEmail: invite someone other than yourself',
    );
  });

  it.each([undefined, 'sam@example.com', 'dana@example.org'])('lets %j through', (email) => {
    expect(() => assertInviteeIsSomeoneElse(email, caller)).not.toThrow();
  });
});
