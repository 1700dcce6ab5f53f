// All repositories over one database. They only read and write rows; callers wrap writes in write().
import type { Db } from '../db/database';
import { AttachmentsRepo } from './attachments';
import { BookingsRepo } from './bookings';
import { CatalogRepo } from './catalog';
import { LedgerRepo } from './ledger';
import { ChannelsRepo } from './channels';
import { InvitationsRepo } from './invitations';
import { LeavingRepo } from './leaving';
import { EmailTokensRepo } from './emailTokens';
import { MailJobsRepo } from './mailJobs';
import { MessagesRepo } from './messages';
import { MessageSearchRepo } from './messageSearch';
import { MissedMailRepo } from './missedMail';
import { MutesRepo } from './mutes';
import { OffersRepo } from './offers';
import { PhotosRepo } from './photos';
import { PendingRepo } from './pending';
import { PushJobsRepo } from './pushJobs';
import { ReadsRepo } from './reads';
import { ReceiptsRepo } from './receipts';
import { SessionsRepo } from './sessions';
import { SettingsRepo } from './settings';
import { SignUpsRepo } from './signUps';
import { TokensRepo } from './tokens';
import { UsersRepo } from './users';

export interface Repos {
  users: UsersRepo;
  sessions: SessionsRepo;
  tokens: TokensRepo;
  channels: ChannelsRepo;
  messages: MessagesRepo;
  messageSearch: MessageSearchRepo;
  invitations: InvitationsRepo;
  offers: OffersRepo;
  pending: PendingRepo;
  reads: ReadsRepo;
  receipts: ReceiptsRepo;
  mutes: MutesRepo;
  pushJobs: PushJobsRepo;
  settings: SettingsRepo;
  attachments: AttachmentsRepo;
  leaving: LeavingRepo;
  mailJobs: MailJobsRepo;
  emailTokens: EmailTokensRepo;
  missedMail: MissedMailRepo;
  catalog: CatalogRepo;
  bookings: BookingsRepo;
  ledger: LedgerRepo;
  signUps: SignUpsRepo;
  photos: PhotosRepo;
}

export function createRepos(db: Db): Repos {
  return {
    users: new UsersRepo(db),
    sessions: new SessionsRepo(db),
    tokens: new TokensRepo(db),
    channels: new ChannelsRepo(db),
    messages: new MessagesRepo(db),
    messageSearch: new MessageSearchRepo(db),
    invitations: new InvitationsRepo(db),
    offers: new OffersRepo(db),
    pending: new PendingRepo(db),
    reads: new ReadsRepo(db),
    receipts: new ReceiptsRepo(db),
    mutes: new MutesRepo(db),
    pushJobs: new PushJobsRepo(db),
    settings: new SettingsRepo(db),
    attachments: new AttachmentsRepo(db),
    leaving: new LeavingRepo(db),
    mailJobs: new MailJobsRepo(db),
    emailTokens: new EmailTokensRepo(db),
    missedMail: new MissedMailRepo(db),
    catalog: new CatalogRepo(db),
    bookings: new BookingsRepo(db),
    ledger: new LedgerRepo(db),
    signUps: new SignUpsRepo(db),
    photos: new PhotosRepo(db),
  };
}
