// core/privateChannels.ts: who may open a private consultation with whom, one per pair, its two participants, and
// the name each of them sees it under.
import { QupmError } from '@core/errors';
import type { Channel } from '@core/model';
import { canMessage, canReadChannel, canReadMessages, channelPermissions } from '@core/permissions';
import { assertChannelOwner } from '@core/channels';
import {
  PRIVATE_CHANNEL_MESSAGES,
  assertNotPrivate,
  channelDisplayName,
  decidePrivatePair,
  invitationPrivatePair,
  isReservedHandle,
  newPrivateChannel,
  otherParticipant,
  privateChannelAfterRename,
  privateChannelHandle,
  privatePairKey,
} from '@core/privateChannels';
import { channelCreateBody, privateChannelCreateBody } from '@core/schemas';
import { toChannel, toInvitation } from '@core/documents';

const studio = { ownerId: 'dana', members: ['morgan', 'sam'] };

function refusal(run: () => unknown): { status: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QupmError);
    return { status: (error as QupmError).status, message: (error as QupmError).message };
  }
  throw new Error('expected a refusal');
}

const opened: Channel = newPrivateChannel({
  id: 'PrivateChannel000001',
  pair: { ownerId: 'dana', memberId: 'morgan' },
  names: { dana: 'Dana', morgan: 'Morgan' },
  createdAt: 5,
});

describe('decidePrivatePair', () => {
  it('lets a client open one with the consultant of their channel, the consultant owning it', () => {
    expect(decidePrivatePair('morgan', 'dana', studio)).toEqual({ ownerId: 'dana', memberId: 'morgan' });
  });

  it('lets a consultant open one with a member of their channel: the same pair', () => {
    expect(decidePrivatePair('dana', 'morgan', studio)).toEqual({ ownerId: 'dana', memberId: 'morgan' });
  });

  it('refuses two clients of the same channel', () => {
    expect(refusal(() => decidePrivatePair('sam', 'morgan', studio))).toEqual({
      status: 'PERMISSION_DENIED',
      message: PRIVATE_CHANNEL_MESSAGES.notShared,
    });
  });

  it('refuses someone outside the channel, either way round', () => {
    expect(refusal(() => decidePrivatePair('stranger', 'dana', studio)).status).toBe('PERMISSION_DENIED');
    expect(refusal(() => decidePrivatePair('dana', 'stranger', studio)).status).toBe('PERMISSION_DENIED');
  });

  it('refuses oneself, a missing channel, and a private channel as the meeting place', () => {
    expect(refusal(() => decidePrivatePair('dana', 'dana', studio)).status).toBe('INVALID_ARGUMENT');
    expect(refusal(() => decidePrivatePair('morgan', 'dana', null)).status).toBe('NOT_FOUND');
    expect(refusal(() => decidePrivatePair('morgan', 'dana', opened)).status).toBe('FAILED_PRECONDITION');
  });

  it('never matches an empty uid to a channel with an empty owner', () => {
    expect(refusal(() => decidePrivatePair('', 'x', { ownerId: '', members: ['x'] })).status).toBe(
      'PERMISSION_DENIED',
    );
    expect(refusal(() => decidePrivatePair('x', '', { ownerId: '', members: ['x'] })).status).toBe(
      'PERMISSION_DENIED',
    );
  });
});

describe('invitationPrivatePair', () => {
  it('pairs the invitation’s consultant with whoever accepts it', () => {
    expect(invitationPrivatePair({ consultantId: 'dana' }, 'sam')).toEqual({
      ownerId: 'dana',
      memberId: 'sam',
    });
    expect(refusal(() => invitationPrivatePair({ consultantId: 'dana' }, 'dana')).status).toBe(
      'INVALID_ARGUMENT',
    );
  });
});

describe('one per pair', () => {
  it('keys a pair the same whoever opens it, and different pairs differently', () => {
    expect(privatePairKey('dana', 'morgan')).toBe(privatePairKey('morgan', 'dana'));
    expect(privatePairKey('dana', 'morgan')).not.toBe(privatePairKey('dana', 'sam'));
  });
});

describe('newPrivateChannel', () => {
  it('has two participants: the consultant owning it and the client as its one member', () => {
    expect(opened).toEqual({
      id: 'PrivateChannel000001',
      channelId: 'private-privatechannel000001',
      ownerId: 'dana',
      title: 'Dana and Morgan',
      description: '',
      members: ['morgan'],
      createdAt: 5,
      kind: 'private',
      names: { dana: 'Dana', morgan: 'Morgan' },
    });
  });

  it('takes a handle nobody can create a channel under', () => {
    expect(isReservedHandle(privateChannelHandle('AbC'))).toBe(true);
    expect(isReservedHandle('strategy-studio')).toBe(false);
    expect(channelCreateBody.safeParse({ channelId: 'private-room', title: 'x' }).success).toBe(false);
    expect(channelCreateBody.safeParse({ channelId: 'privately', title: 'x' }).success).toBe(true);
  });
});

describe('who reads and writes a private consultation', () => {
  it('lets its two participants message, and nobody manage it', () => {
    expect(channelPermissions(opened, 'dana')).toEqual({ permissions: { canMessage: true, isOwner: false } });
    expect(channelPermissions(opened, 'morgan')).toEqual({
      permissions: { canMessage: true, isOwner: false },
    });
    expect(canMessage(opened, 'sam')).toBe(false);
    expect(refusal(() => assertChannelOwner(opened, 'dana'))).toEqual({
      status: 'FAILED_PRECONDITION',
      message: PRIVATE_CHANNEL_MESSAGES.noManagement,
    });
    expect(refusal(() => assertChannelOwner(opened, 'sam')).status).toBe('PERMISSION_DENIED');
    expect(refusal(() => assertNotPrivate(opened)).status).toBe('FAILED_PRECONDITION');
    expect(() => assertNotPrivate({})).not.toThrow();
  });

  it('shows admins that it exists, never its messages; an ordinary channel’s they read', () => {
    const admin = { uid: 'admin', isAdmin: true };
    expect(canReadChannel(opened, admin)).toBe(true);
    expect(canReadMessages(opened, admin)).toBe(false);
    expect(canReadMessages(studio, admin)).toBe(true);
    expect(canReadMessages(opened, { uid: 'morgan', isAdmin: false })).toBe(true);
    expect(canReadMessages(opened, { uid: 'sam', isAdmin: false })).toBe(false);
  });
});

describe('channelDisplayName', () => {
  it('lists it under the other person’s name for each participant', () => {
    expect(channelDisplayName(opened, 'dana')).toBe('Morgan');
    expect(channelDisplayName(opened, 'morgan')).toBe('Dana');
    expect(otherParticipant(opened, 'dana')).toBe('morgan');
    expect(otherParticipant(opened, 'sam')).toBe('');
  });

  it('shows anyone else (an admin) its stored title, and an ordinary channel its title', () => {
    expect(channelDisplayName(opened, 'admin')).toBe('Dana and Morgan');
    expect(channelDisplayName({ ...studio, title: 'Strategy Studio' }, 'morgan')).toBe('Strategy Studio');
  });

  it('falls back to words for a person when the name is missing', () => {
    expect(channelDisplayName({ ...opened, names: {} }, 'dana')).toBe('Private conversation');
  });
});

describe('privateChannelAfterRename', () => {
  it('names the renamed person anew in the stored names and title, for both people and an admin', () => {
    const after = privateChannelAfterRename(opened, 'morgan', 'Morgana');
    expect(after).toEqual({ title: 'Dana and Morgana', names: { dana: 'Dana', morgan: 'Morgana' } });
    const renamed = { ...opened, ...after };
    expect(channelDisplayName(renamed, 'dana')).toBe('Morgana');
    expect(channelDisplayName(renamed, 'admin')).toBe('Dana and Morgana');
    expect(privateChannelAfterRename(opened, 'dana', 'Dee')?.title).toBe('Dee and Morgan');
  });

  it('changes nothing for the same name, for someone not in it, or for an ordinary channel', () => {
    expect(privateChannelAfterRename(opened, 'morgan', 'Morgan')).toBeNull();
    expect(privateChannelAfterRename(opened, 'sam', 'Sam')).toBeNull();
    expect(privateChannelAfterRename(studio, 'morgan', 'M')).toBeNull();
  });
});

describe('privateChannelCreateBody', () => {
  it('takes a user id and a channel id, nothing else', () => {
    expect(
      privateChannelCreateBody.safeParse({ withUid: 'dana0123', viaChannelId: 'ChannelStudio0000001' })
        .success,
    ).toBe(true);
    expect(
      privateChannelCreateBody.safeParse({ withUid: '../x', viaChannelId: 'ChannelStudio0000001' }).success,
    ).toBe(false);
    expect(
      privateChannelCreateBody.safeParse({ withUid: 'dana', viaChannelId: 'ChannelStudio0000001', kind: 'x' })
        .success,
    ).toBe(false);
  });
});

describe('Firestore documents of private consultations (core/documents.ts)', () => {
  it('reads a private channel with its names, and any other kind as an ordinary channel', () => {
    const data = { channelId: 'private-x', ownerId: 'dana', title: 'Dana and Morgan', members: ['morgan'] };
    expect(toChannel('Id', { ...data, kind: 'private', names: { dana: 'Dana', morgan: 7 } })).toMatchObject({
      kind: 'private',
      names: { dana: 'Dana' },
    });
    expect(toChannel('Id', { ...data, kind: 'secret', names: { dana: 'Dana' } })).not.toHaveProperty('kind');
    expect(toChannel('Id', { ...data, kind: 'private', names: 'x' }).names).toEqual({});
  });

  it('reads an invitation for a private consultation and the conversation it opened', () => {
    const names = { channelTitle: 'Studio', consultantName: 'Dana' };
    expect(
      toInvitation('I', { privateConsultation: true, privateChannelId: 'P', status: 'accepted' }, names),
    ).toMatchObject({ privateConsultation: true, privateChannelId: 'P' });
    expect(toInvitation('I', { privateConsultation: 'yes' }, names)).not.toHaveProperty(
      'privateConsultation',
    );
  });
});
