// AdminPort on Firebase: callables only, each checking the isAdmin custom claim (the admin section reads
// other people's documents, which rules do not open to any client).
import type { AdminPort } from '../ports';
import { callFunction } from './callables';
import { listOf, toAdminChannel, toAdminUser } from './convert';
import type { FirebaseSdk } from './sdk';

export function createAdminPort(sdk: FirebaseSdk): AdminPort {
  return {
    listUsers: () =>
      callFunction(sdk, 'admin_list_users', null, (data) => listOf(data, 'users', toAdminUser)),
    setConsultant: (uid, isOwner) => callFunction(sdk, 'admin_set_consultant', { uid, isOwner }, toAdminUser),
    listChannels: () =>
      callFunction(sdk, 'admin_list_channels', null, (data) => listOf(data, 'channels', toAdminChannel)),
  };
}
