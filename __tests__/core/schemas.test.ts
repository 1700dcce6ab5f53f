// core/schemas.ts: what crosses into a backend. The rules it applies (email, message text, discount, grants,
// handles) have their own tests beside their modules; this file tests what the schemas add around them: strict
// objects, bounds, defaults, the refinements, the cursor on the wire and the words of a refusal.
import type { z } from 'zod';
import { LIMITS } from '@core/limits';
import {
  callablePayloads,
  channelCreateBody,
  channelPatchBody,
  channelsQuery,
  describeIssues,
  messageCreateBody,
  messagesQuery,
  notificationSettingsSchema,
  offerCreateBody,
  privateChannelCreateBody,
  productCallablePayloads,
  profilePatchBody,
  pushTokenCreateBody,
  signUpBody,
  streamQuery,
} from '@core/schemas';

const ID = 'AbCdEfGhIjKlMnOpQrSt';
const ok = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('objects are strict', () => {
  it.each([
    ['an unknown key', { email: 'ann@example.com', password: 'long enough 1', isAdmin: true }],
    [
      'a __proto__ key',
      JSON.parse('{"email":"ann@example.com","password":"long enough 1","__proto__":{"x":1}}'),
    ],
  ])('refuses %s', (_name, body) => {
    expect(ok(signUpBody, body)).toBe(false);
  });

  it('accepts exactly the known keys', () => {
    expect(ok(signUpBody, { email: 'ann@example.com', password: 'long enough 1' })).toBe(true);
  });
});

describe('bounds and defaults', () => {
  it('bounds a channel title after trimming, and defaults its description to empty', () => {
    const parsed = channelCreateBody.parse({ channelId: 'growth-lab', title: '  Growth  ' });
    expect(parsed).toEqual({ channelId: 'growth-lab', title: 'Growth', description: '' });
    expect(ok(channelCreateBody, { channelId: 'growth-lab', title: '   ' })).toBe(false);
    expect(
      ok(channelCreateBody, { channelId: 'growth-lab', title: 'x'.repeat(LIMITS.channelTitleMax) }),
    ).toBe(true);
    expect(
      ok(channelCreateBody, { channelId: 'growth-lab', title: 'x'.repeat(LIMITS.channelTitleMax + 1) }),
    ).toBe(false);
  });

  it('names an offer’s source when the consultant gives none', () => {
    const offer = { channelId: ID, userId: ID, discountPercent: 10, expiresAt: 1_700_000_000_000 };
    const parsed = offerCreateBody.parse({ ...offer, serviceId: ID });
    expect(parsed.source).toBe('Consultant offer');
    // A new offer is for one of the consultant's services.
    expect(ok(offerCreateBody, offer)).toBe(false);
  });

  it('names a person by a QuPM id or a Firebase Auth uid (28 characters), and by nothing else', () => {
    const firebaseUid = 'YYKaPVgHTmt4fGzVzf9gEVBRK6ld';
    const offer = (userId: string) => ({
      channelId: ID,
      userId,
      serviceId: ID,
      discountPercent: 10,
      expiresAt: 1_700_000_000_000,
    });
    const role = (uid: string) => ({ uid, isOwner: true });
    for (const uid of [ID, firebaseUid, 'x'.repeat(128)]) {
      expect(ok(offerCreateBody, offer(uid))).toBe(true);
      expect(ok(productCallablePayloads.admin_set_consultant, role(uid))).toBe(true);
      expect(ok(privateChannelCreateBody, { withUid: uid, viaChannelId: ID })).toBe(true);
    }
    for (const uid of ['', 'x'.repeat(129), 'users/../admin', 'uid with spaces']) {
      expect(ok(offerCreateBody, offer(uid))).toBe(false);
      expect(ok(productCallablePayloads.admin_set_consultant, role(uid))).toBe(false);
      expect(ok(privateChannelCreateBody, { withUid: uid, viaChannelId: ID })).toBe(false);
    }
  });

  it('takes a push token with its device, platform and a bounded user agent', () => {
    const body = { token: 'a'.repeat(LIMITS.pushTokenMin), deviceId: ID, platform: 'web', userAgent: 'UA' };
    expect(ok(pushTokenCreateBody, body)).toBe(true);
    expect(ok(pushTokenCreateBody, { ...body, platform: 'symbian' })).toBe(false);
    expect(ok(pushTokenCreateBody, { ...body, userAgent: 'x'.repeat(LIMITS.userAgentMax + 1) })).toBe(false);
  });

  it('takes a message under the client’s id, or none, and nothing else as its id', () => {
    expect(ok(messageCreateBody, { id: ID, text: 'Hello' })).toBe(true);
    expect(ok(messageCreateBody, { text: 'Hello' })).toBe(true);
    expect(ok(messageCreateBody, { id: 'not-an-id', text: 'Hello' })).toBe(false);
  });

  it('bounds a stream ticket', () => {
    expect(ok(streamQuery, { ticket: '' })).toBe(false);
    expect(ok(streamQuery, { ticket: 'x'.repeat(129) })).toBe(false);
    expect(ok(streamQuery, { ticket: 'x'.repeat(128) })).toBe(true);
  });
});

describe('refinements', () => {
  it('refuses a patch that changes nothing', () => {
    expect(ok(profilePatchBody, {})).toBe(false);
    expect(ok(channelPatchBody, {})).toBe(false);
    expect(ok(profilePatchBody, { nickname: 'Ann' })).toBe(true);
  });

  it('refuses a delivery channel named twice', () => {
    const settings = (channels: string[]) => ({ enabled: true, delivery: { channels } });
    expect(ok(notificationSettingsSchema, settings(['push', 'in_app']))).toBe(true);
    expect(ok(notificationSettingsSchema, settings(['push', 'push']))).toBe(false);
    expect(ok(notificationSettingsSchema, settings(['carrier-pigeon']))).toBe(false);
  });

  it('pages messages before or after a cursor, never both, and reads the cursor', () => {
    expect(messagesQuery.parse({ before: '1700000000000_' + ID, limit: '20' })).toEqual({
      before: { createdAt: 1_700_000_000_000, id: ID },
      limit: 20,
    });
    expect(ok(messagesQuery, { before: '1700000000000', after: '1700000000001' })).toBe(false);
    expect(ok(messagesQuery, { before: 'yesterday' })).toBe(false);
    expect(ok(messagesQuery, { limit: String(LIMITS.messagesPageMax + 1) })).toBe(false);
  });

  it('looks channels up as mine, or by handle with limit 1 (spec §7), nothing else', () => {
    expect(ok(channelsQuery, { mine: 'true' })).toBe(true);
    expect(ok(channelsQuery, { channelId: 'growth-lab', limit: '1' })).toBe(true);
    expect(ok(channelsQuery, { channelId: 'growth-lab', limit: '2' })).toBe(false);
    expect(ok(channelsQuery, {})).toBe(false);
  });

  it('checks a callable’s payload and never trusts the owner id it may carry (spec §7)', () => {
    const check = callablePayloads.check_channel_permissions;
    expect(ok(check, { channel_id: ID, channel_owner_id: 'anyone' })).toBe(true);
    expect(ok(check, { channel_id: ID, channel_owner_id: 42 })).toBe(false);
    expect(ok(callablePayloads.get_user_active_offers, null)).toBe(true);
    expect(ok(callablePayloads.get_user_active_offers, { extra: 1 })).toBe(false);
  });
});

describe('describeIssues', () => {
  it('says where and what, in one short line', () => {
    const result = channelCreateBody.safeParse({ channelId: 'Not A Handle', title: 'T' });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeIssues(result.error)).toMatch(/^channelId: /);
  });

  it('calls a failure of the whole request "request"', () => {
    const result = profilePatchBody.safeParse({});
    expect(result.success).toBe(false);
    if (!result.success) expect(describeIssues(result.error)).toBe('request: nothing to change');
  });
});
