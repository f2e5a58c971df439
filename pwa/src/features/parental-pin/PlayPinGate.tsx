import { isRatingHiddenBy, type MovieRating, RATING_LABELS } from '@filamu/shared';
import { useEffect, useState, type ReactNode } from 'react';
import { Card } from '../../components/ui/Card.tsx';
import { LockIcon } from '../../components/ui/icons.tsx';
import { useSessionStore } from '../../lib/session.ts';
import { usePinT } from './messages.ts';
import { checkPinOffline, lockedWords, offlineLockedUntil } from './offline-check.ts';
import { unlockedNow } from './pin-state.ts';
import { PinPrompt } from './PinPrompt.tsx';

/**
 * Before a downloaded title the parental PIN hides can play, asks for the PIN and checks it on the phone (no
 * network needed). A file kept before its rating was recorded counts as 18+. Passing lasts while this screen is open.
 */
export function PlayPinGate({ rating, children }: { rating: MovieRating | undefined; children: ReactNode }) {
  const t = usePinT();
  const user = useSessionStore((s) => s.user);
  const status = user?.parentalPin;
  const [passed, setPassed] = useState(false);
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const userId = user?.id;

  useEffect(() => {
    if (userId) void offlineLockedUntil(userId).then(setLockedUntil);
  }, [userId]);
  useEffect(() => {
    if (!lockedUntil) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [lockedUntil]);

  const verifier = status?.offlineVerifier;
  const restricted = !!verifier && isRatingHiddenBy(status?.hides, rating ?? '18');
  if (!restricted || !userId || passed || unlockedNow(status)) return <>{children}</>;

  const locked = lockedUntil !== null && lockedUntil > now;
  return (
    <Card data-testid="play-pin-gate" className="flex flex-col items-center py-10 text-center">
      <LockIcon className="size-10 text-stone-400" />
      <h2 className="mt-4 text-lg font-semibold">
        {t('parental-pin.gate.heading', { rating: rating ? RATING_LABELS[rating] : '18+' })}
      </h2>
      <p className="mt-1 max-w-md text-sm text-stone-600 dark:text-stone-400">{t('parental-pin.gate.text')}</p>
      {locked ? (
        <p role="alert" className="mt-4 font-medium text-red-700 dark:text-red-400">
          {lockedWords(lockedUntil, now)}
        </p>
      ) : (
        <PinPrompt
          autoFocus
          submitLabel={t('parental-pin.gate.play')}
          check={async (pin) => {
            const result = await checkPinOffline(userId, verifier, pin);
            if (result.ok) {
              setPassed(true);
              return null;
            }
            if (result.locked) {
              setNow(Date.now());
              setLockedUntil(result.lockedUntil);
              return lockedWords(result.lockedUntil);
            }
            return t('parental-pin.gate.wrong', { count: result.triesLeft });
          }}
        />
      )}
    </Card>
  );
}
