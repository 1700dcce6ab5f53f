// Leaving: the export's versioned shape with no push token in it, its file name, who may leave,
// and what stays of a private consultation whose client left.
import { QupmError } from '@core/errors';
import {
  ACCOUNT_EXPORT_FORMAT,
  ACCOUNT_EXPORT_VERSION,
  FORMER_MEMBER_ID,
  FORMER_MEMBER_NAME,
  accountExportFileName,
  assertCanLeave,
  buildAccountExport,
  ownsChannelsMessage,
  privateChannelAfterLeaving,
  privateChannelAfterOwnerLeft,
  toExportedMessage,
} from '@core/leaving';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import type { PushTokenDoc, UserDoc } from '@core/model';

const NOW = Date.UTC(2026, 10, 23, 23, 59, 30);
const account: UserDoc = {
  uid: 'member00000000000001',
  email: 'morgan@example.com',
  isOwner: false,
  notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
  credits: 3,
  passCount: 1,
  effectiveConId: '',
};
const device: PushTokenDoc = {
  id: 'token000000000000001',
  token: 'SECRET-SUBSCRIPTION-KEYS',
  deviceId: 'phone',
  createdAt: 1,
  lastUsed: 2,
  status: 'active',
  platform: 'web',
  userAgent: 'Firefox',
};
const parts = {
  account,
  mutes: { c1: 5 },
  messages: [
    { id: 'b', channelId: 'c1', channelTitle: 'Studio', text: 'second', createdAt: 20 },
    { id: 'a', channelId: 'c1', channelTitle: 'Studio', text: 'first', createdAt: 10 },
  ],
  offersReceived: [],
  offersIssued: [],
  invitationsSent: [],
  invitationsReceived: [],
  devices: [device],
};

describe('buildAccountExport', () => {
  it('is versioned, dated, ordered oldest first, and keeps the settings beside the account', () => {
    const data = buildAccountExport(parts, NOW);
    expect(data).toMatchObject({
      format: ACCOUNT_EXPORT_FORMAT,
      version: ACCOUNT_EXPORT_VERSION,
      exportedAt: '2026-11-23T23:59:30.000Z',
      account,
      settings: DEFAULT_NOTIFICATION_SETTINGS,
      mutes: { c1: 5 },
    });
    expect(data.messages.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('lists devices without their push token', () => {
    const data = buildAccountExport(parts, NOW);
    expect(data.devices).toEqual([
      { id: device.id, deviceId: 'phone', platform: 'web', userAgent: 'Firefox', createdAt: 1, lastUsed: 2 },
    ]);
    expect(JSON.stringify(data)).not.toContain('SECRET-SUBSCRIPTION-KEYS');
  });
});

describe('accountExportFileName', () => {
  it('names the file by the UTC day of the export', () => {
    expect(accountExportFileName(buildAccountExport(parts, NOW).exportedAt)).toBe(
      'qupm-data-2026-11-23.json',
    );
  });
});

describe('assertCanLeave', () => {
  it('lets someone who owns no channel leave', () => {
    expect(() => assertCanLeave([])).not.toThrow();
  });

  it('refuses a consultant who owns channels, naming them and what to do first', () => {
    expect(() => assertCanLeave(['Studio'])).toThrow(QupmError);
    expect(() => assertCanLeave(['Studio'])).toThrow(
      'You still own a channel (“Studio”). Hand each one over to another consultant or delete it first; your ' +
        'account has not been deleted.',
    );
    expect(ownsChannelsMessage(['A', 'B', 'C', 'D', 'E'])).toMatch(
      /^You still own 5 channels \(“A”, “B”, “C” and 2 more\)/,
    );
  });
});

describe('privateChannelAfterLeaving', () => {
  it('lists the consultation as "A former member" and keeps only the consultant’s name', () => {
    expect(privateChannelAfterLeaving({ dana: 'Dana', morgan: 'Morgan' }, 'dana')).toEqual({
      title: FORMER_MEMBER_NAME,
      names: { dana: 'Dana' },
    });
  });
});

describe('privateChannelAfterOwnerLeft', () => {
  it('hands the consultation to the former member, read-only from then, naming the client and the former member', () => {
    expect(privateChannelAfterOwnerLeft({ dana: 'Dana', morgan: 'Morgan' }, 'morgan', 1234)).toEqual({
      ownerId: FORMER_MEMBER_ID,
      title: FORMER_MEMBER_NAME,
      names: { [FORMER_MEMBER_ID]: FORMER_MEMBER_NAME, morgan: 'Morgan' },
      archivedAt: 1234,
    });
  });
});

describe('toExportedMessage (both backends’ export of a message)', () => {
  const message = {
    id: 'Message0000000000001',
    channelId: 'ChannelA000000000001',
    senderId: 'uid',
    senderName: 'Morgan',
    text: 'Hello',
    createdAt: 10,
  };

  it('names the channel as the person saw it, and not the sender (it is them)', () => {
    expect(toExportedMessage(message, 'Growth Clinic')).toEqual({
      id: message.id,
      channelId: message.channelId,
      channelTitle: 'Growth Clinic',
      text: 'Hello',
      createdAt: 10,
    });
  });

  it('keeps an edit, a deletion and a file’s name, type and size', () => {
    const attachment = {
      id: 'Attachment0000000001',
      kind: 'image' as const,
      name: 'a.png',
      contentType: 'image/png' as const,
      size: 3,
      width: 1,
      height: 1,
    };
    const exported = toExportedMessage(
      { ...message, editedAt: 11, deleted: true, attachments: [attachment] },
      'x',
    );
    expect(exported).toMatchObject({ editedAt: 11, deleted: true });
    expect(exported.attachments).toEqual([
      { id: attachment.id, name: 'a.png', kind: 'image', contentType: 'image/png', size: 3 },
    ]);
  });
});
