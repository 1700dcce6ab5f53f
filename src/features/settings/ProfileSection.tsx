// Settings → Profile: the nickname consultants and members see (empty falls back to the account's name).
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { LIMITS } from '@core/limits';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectUser } from '@/store/userSlice';
import { profileSaveRequested, selectProfileSave } from './settingsSlice';
import { SaveActions } from './SaveActions';

export function ProfileSection() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const save = useAppSelector(selectProfileSave);
  const [nickname, setNickname] = useState(user.nickname);
  const id = useId();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    dispatch(profileSaveRequested({ nickname: nickname.trim() }));
  };

  return (
    <form className="settings-form card" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>Nickname</label>
        <input
          id={id}
          name="nickname"
          type="text"
          autoComplete="nickname"
          maxLength={LIMITS.nicknameMax}
          value={nickname}
          onChange={(e) => setNickname(e.target.value)}
        />
        <p className="field__hint">
          Up to {LIMITS.nicknameMax} characters. Signed in as {user.authUser?.email}.
        </p>
      </div>
      <SaveActions save={save} />
    </form>
  );
}
