// A Backend whose every port method is a jest.fn that fails loudly unless a test gives it an answer: tests
// mock at the port, never deeper.
import type { Backend } from '@/backend/ports';

type DeepMock<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? jest.Mock<R, A> : DeepMock<T[K]>;
};

function unexpected(name: string) {
  return jest.fn(() => {
    throw new Error(`unexpected call to ${name}`);
  });
}

export function createFakeBackend(): DeepMock<Omit<Backend, 'kind'>> & { kind: 'local' } {
  const port = <T extends string>(prefix: string, names: T[]) =>
    Object.fromEntries(names.map((name) => [name, unexpected(`${prefix}.${name}`)]));
  return {
    kind: 'local',
    auth: port('auth', [
      'signUp',
      'signIn',
      'signOut',
      'currentUser',
      'getIdTokenClaims',
      'onAuthStateChanged',
      'getEmailVerification',
      'sendEmailVerification',
      'verifyEmail',
      'requestPasswordReset',
      'confirmPasswordReset',
      'changeEmail',
    ]),
    users: port('users', [
      'getUser',
      'updateProfile',
      'setPhoto',
      'removePhoto',
      'subscribeUser',
      'exportMyData',
      'deleteMyAccount',
    ]),
    channels: port('channels', [
      'getChannel',
      'findChannelByHandle',
      'listMyChannels',
      'listOverview',
      'createChannel',
      'updateChannel',
      'listMembers',
      'openPrivateChannel',
      'markRead',
      'subscribeChannels',
    ]),
    messages: port('messages', [
      'listMessages',
      'sendMessage',
      'editMessage',
      'deleteMessage',
      'subscribeMessages',
      'uploadAttachment',
      'readAttachment',
    ]),
    live: port('live', ['subscribeStatus']),
    invitations: port('invitations', [
      'getInvitation',
      'previewInvitation',
      'acceptInvitation',
      'activateInvitation',
      'createInvitation',
      'listChannelInvitations',
      'listMyInvitations',
      'subscribeMyInvitations',
    ]),
    offers: port('offers', [
      'issueOffer',
      'listIssuedOffers',
      'listMyOffers',
      'withdrawOffer',
      'subscribeOffers',
    ]),
    admin: port('admin', ['listUsers', 'setConsultant', 'listChannels']),
    pushTokens: port('pushTokens', [
      'findActiveToken',
      'addToken',
      'touchToken',
      'deleteToken',
      'listMyTokens',
    ]),
    mutes: port('mutes', ['listMutes', 'muteChannel', 'unmuteChannel', 'subscribeMutes']),
    receipts: port('receipts', [
      'listReceipts',
      'subscribeReceipts',
      'markDelivered',
      'getSettings',
      'setSettings',
    ]),
    typing: port('typing', ['sendTyping', 'subscribeTyping']),
    callables: port('callables', [
      'checkChannelPermissions',
      'getUserActiveOffers',
      'clearPendingNotifications',
    ]),
    pushProvider: {
      ...port('pushProvider', ['getPublicKey', 'getToken', 'deleteToken']),
      permissionBlockedMessage: 'Registration failed - permission denied',
    },
    sessions: {
      ...port('sessions', ['listSessions', 'signOutSession', 'signOutOtherSessions', 'changePassword']),
      listsEverySession: true,
    },
    services: port('services', [
      'listServices',
      'createService',
      'updateService',
      'getHours',
      'setHours',
      'listFreeSlots',
      'subscribeServices',
    ]),
    bookings: port('bookings', [
      'requestBooking',
      'getBooking',
      'listMyBookings',
      'confirmBooking',
      'declineBooking',
      'proposeTime',
      'acceptProposal',
      'declineProposal',
      'cancelBooking',
      'completeBooking',
      'refundBooking',
      'subscribeBookings',
    ]),
    ledger: port('ledger', ['grant', 'listMyLedger', 'getEarnings']),
    search: port('search', ['searchMessages']),
    housekeeping: port('housekeeping', [
      'describeChannelRemoval',
      'archiveChannel',
      'unarchiveChannel',
      'deleteChannel',
      'removeMember',
      'revokeInvitation',
      'handOverChannel',
      'subscribeChannelRemoved',
    ]),
  } as unknown as DeepMock<Omit<Backend, 'kind'>> & { kind: 'local' };
}
