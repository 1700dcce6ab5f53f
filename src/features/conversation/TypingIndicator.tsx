// "Dana is typing…" above the composer, while someone else writes in the channel (receiptsSlice keeps who, for a
// few seconds after their last keystroke). A polite live region: screen readers hear it without losing their place.
import { typingWords } from '@core/receipts';
import { useAppSelector } from '@/store/hooks';
import { selectTypingNames } from '@/store/receiptsSlice';
import './receipts.css';

export function TypingIndicator({ channelId }: { channelId: string }) {
  const names = useAppSelector((state) => selectTypingNames(state, channelId));
  return (
    <p className="typing" aria-live="polite" dir="auto">
      {typingWords(names)}
    </p>
  );
}
