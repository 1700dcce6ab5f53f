// A channel's owner manages it, in four tabs: its details, its members (each with "Send offer" and "Remove"),
// invitations (a form and the list, with links to copy, share or revoke), and the channel itself (archive, hand
// over, delete). Each tab's content is a file of its own; this one is the tabs.
import { useId, useState } from 'react';
import type { Channel } from '@core/model';
import { ChannelDetailsForm } from './ChannelDetailsForm';
import { ChannelHousekeeping } from './ChannelHousekeeping';
import { ChannelInvitations } from './ChannelInvitations';
import { ChannelMembers } from './ChannelMembers';
import { InvitationForm } from './InvitationForm';
import './manage.css';

type Tab = 'details' | 'members' | 'invite' | 'channel';
const TABS: Array<[Tab, string]> = [
  ['details', 'Details'],
  ['members', 'Members'],
  ['invite', 'Invite'],
  ['channel', 'Channel'],
];

export function ManagePanel({ channel }: { channel: Channel }) {
  const [tab, setTab] = useState<Tab>('details');
  const base = useId();
  return (
    <div className="manage">
      <div className="tabs" role="tablist" aria-label="Manage channel">
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`${base}-${id}-tab`}
            aria-selected={tab === id}
            aria-controls={`${base}-${id}-panel`}
            className={tab === id ? 'tab tab--active' : 'tab'}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${base}-${tab}-panel`}
        aria-labelledby={`${base}-${tab}-tab`}
        className="manage__panel"
      >
        {tab === 'details' && <ChannelDetailsForm channel={channel} />}
        {tab === 'members' && <ChannelMembers channel={channel} />}
        {tab === 'channel' && <ChannelHousekeeping channel={channel} />}
        {tab === 'invite' && (
          <div className="manage__invite">
            <InvitationForm channel={channel} />
            <ChannelInvitations channel={channel} />
          </div>
        )}
      </div>
    </div>
  );
}
