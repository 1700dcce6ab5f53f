// The mute state in the conversation's one-line header: a struck-through bell while the channel is muted, its
// words ("Muted until 14:00") for screen readers and a pointer's hover. Muting and unmuting are in the channel's
// menu (MuteControl); this only says it, so the header never grows a line with the words.
import { useAppSelector } from '@/store/hooks';
import { selectMutedUntil } from '@/store/mutesSlice';
import { BellOff } from '@/ui/BellOff';
import { mutedWords } from '@/ui/muteWords';
import { useNow } from '@/ui/time';

export function MutedMark({ channelId }: { channelId: string }) {
  const now = useNow(30_000);
  const mutedUntil = useAppSelector((state) => selectMutedUntil(state, channelId));
  const words = mutedWords(mutedUntil, now);
  if (!words) return null;
  return (
    <span className="muted-mark conversation__muted" title={words} data-testid="header-muted">
      <BellOff />
      <span className="visually-hidden">{words}</span>
    </span>
  );
}
