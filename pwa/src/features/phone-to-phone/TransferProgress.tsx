import { formatBytes } from '@filamu/shared';
import { ProgressBar } from '../../components/ui/ProgressBar.tsx';
import { OutcomeNote } from '../downloads/travel.ts';
import { p2pT, useP2pT } from './messages.ts';
import { type FilmRow, useTransfer } from './session.ts';

/** "12 s", "3 min", "1 h 5 min": how long the rest takes at the speed the phones reach now. */
export function timeLeftText(bytesLeft: number, bytesPerSecond: number): string {
  const seconds = Math.ceil(bytesLeft / Math.max(1, bytesPerSecond));
  if (seconds < 60) return p2pT('phone-to-phone.eta.seconds', { seconds });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return p2pT('phone-to-phone.eta.minutes', { minutes });
  return p2pT('phone-to-phone.eta.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

function stateText(film: FilmRow, role: 'send' | 'receive' | null): string {
  switch (film.state) {
    case 'waiting':
      return p2pT('phone-to-phone.film.waiting');
    case 'moving':
      return p2pT('phone-to-phone.film.moving', { arrived: formatBytes(film.arrived), total: formatBytes(film.bytes) });
    case 'done':
      return p2pT(role === 'send' ? 'phone-to-phone.film.sent' : 'phone-to-phone.film.received');
    case 'skipped':
      return role === 'send' && film.note
        ? p2pT('phone-to-phone.film.notTakenWhy', { why: film.note })
        : p2pT('phone-to-phone.film.notTaken');
    case 'refused':
      return p2pT('phone-to-phone.film.notReceived');
  }
}

/** Each film of the transfer with its progress; the speed and time left while films move. */
export function TransferProgress() {
  const t = useP2pT();
  const { films, speed, role, phase } = useTransfer();
  if (films.length === 0) return null;
  const left = films.reduce(
    (sum, film) => sum + (film.state === 'waiting' || film.state === 'moving' ? film.bytes - film.arrived : 0),
    0,
  );
  const moving = phase.at === 'moving';
  return (
    <section aria-label={t('phone-to-phone.films')} className="mt-6">
      {moving && (
        <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
          {speed === null
            ? t('phone-to-phone.speed.measuring')
            : t('phone-to-phone.speed', { speed: formatBytes(speed), left: timeLeftText(left, speed) })}
        </p>
      )}
      <ul className="mt-3 space-y-4">
        {films.map((film) => (
          <li key={film.mid} className="min-w-0">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-medium break-words">{film.title}</span>
              <span className="text-sm text-stone-600 dark:text-stone-400">{stateText(film, role)}</span>
            </div>
            {(film.state === 'moving' || film.state === 'waiting') && (
              <ProgressBar
                className="mt-2"
                label={t('phone-to-phone.arrived', { title: film.title })}
                percent={(film.arrived / film.bytes) * 100}
              />
            )}
            {role === 'receive' && film.outcome && <OutcomeNote result={film.outcome} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
