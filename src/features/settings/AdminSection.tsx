// Settings → Admin (isAdmin claim only): every user with their role, making or unmaking a consultant, and every
// channel, each ordinary one with a hand-over to another consultant (./AdminHandOver.tsx). The route is guarded here and each call is checked by the backend.
import { isPrivateChannel } from '@core/privateChannels';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectIsAdmin, selectUid } from '@/store/userSlice';
import { adminChannelsRequested, adminUsersRequested, roleChangeRequested, selectAdmin } from './adminSlice';
import { AdminHandOver } from './AdminHandOver';

export function AdminSection() {
  const dispatch = useAppDispatch();
  const isAdmin = useAppSelector(selectIsAdmin);
  const ownUid = useAppSelector(selectUid);
  const admin = useAppSelector(selectAdmin);

  useEffect(() => {
    if (!isAdmin) return;
    dispatch(adminUsersRequested());
    dispatch(adminChannelsRequested());
  }, [dispatch, isAdmin]);

  if (!isAdmin) {
    return (
      <div className="card empty-state" role="alert">
        <h2>This section is for admins</h2>
        <p className="muted">Your account has no admin role. Ask an admin if you need one.</p>
      </div>
    );
  }
  return (
    <div className="admin">
      <section aria-labelledby="admin-users-title">
        <h2 id="admin-users-title">Users</h2>
        {admin.roleError && (
          <p className="form-error" role="alert">
            {admin.roleError}
          </p>
        )}
        {admin.users.status === 'failed' ? (
          <p className="form-error" role="alert">
            {admin.users.error}
          </p>
        ) : admin.users.status !== 'loaded' ? (
          <p className="muted" role="status">
            Loading users…
          </p>
        ) : (
          <div className="table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">
                    <span className="visually-hidden">Change</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {admin.users.items.map((user) => {
                  const busy = admin.changing.includes(user.uid);
                  const role = user.isAdmin ? 'Admin' : user.isOwner ? 'Consultant' : 'Member';
                  return (
                    <tr key={user.uid}>
                      <td data-label="Name" dir="auto">
                        {user.name}
                      </td>
                      <td className="admin-table__email" data-label="Email">
                        {user.email}
                      </td>
                      <td data-label="Role">
                        {role}
                        {user.isAdmin && user.isOwner ? ', consultant' : ''}
                      </td>
                      <td className="admin-table__action">
                        {user.uid !== ownUid && (
                          <button
                            type="button"
                            className="button button--small"
                            disabled={busy}
                            aria-label={`${user.isOwner ? 'Unmake' : 'Make'} consultant: ${user.name}`}
                            onClick={() =>
                              dispatch(roleChangeRequested({ uid: user.uid, isOwner: !user.isOwner }))
                            }
                          >
                            {/* The accessible name starts with the visible words (WCAG 2.5.3) and says whom. */}
                            {busy ? 'Saving…' : user.isOwner ? 'Unmake consultant' : 'Make consultant'}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="admin-channels-title">
        <h2 id="admin-channels-title">Channels</h2>
        {admin.channels.status === 'failed' ? (
          <p className="form-error" role="alert">
            {admin.channels.error}
          </p>
        ) : admin.channels.status !== 'loaded' ? (
          <p className="muted" role="status">
            Loading channels…
          </p>
        ) : admin.channels.items.length === 0 ? (
          <p className="muted">No channels yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Members</th>
                  <th scope="col">Messages</th>
                </tr>
              </thead>
              <tbody>
                {admin.channels.items.map(({ channel, ownerName, messageCount }) => (
                  <tr key={channel.id}>
                    <td data-label="Channel" dir="auto">
                      {channel.title}{' '}
                      {isPrivateChannel(channel) ? (
                        <span className="muted">(private consultation: its messages are theirs alone)</span>
                      ) : (
                        <code className="path">{channel.channelId}</code>
                      )}
                    </td>
                    <td data-label="Owner" dir="auto">
                      {ownerName}
                      {!isPrivateChannel(channel) && (
                        <AdminHandOver channel={channel} users={admin.users.items} />
                      )}
                    </td>
                    <td data-label="Members">{channel.members.length}</td>
                    <td data-label="Messages">{messageCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
