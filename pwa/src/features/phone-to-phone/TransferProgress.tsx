import { formatBytes } from '@filamu/shared';
import { ProgressBar } from '../../components/ui/ProgressBar.tsx';
import { OutcomeNote } from '../downloads/travel.ts';
import { type FilmRow, useTransfer } from './session.ts';

/** "12 s", "3 min", "1 h 5 min": how long the rest takes at the speed the phones reach now. */
export function timeLeftText(bytesLeft: number, bytesPerSecond: number): string {
  const seconds = Math.ceil(bytesLeft / Math.max(1, bytesPerSecond));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function stateText(film: FilmRow, role: 'send' | 'receive' | null): string {
  switch (film.state) {
    case 'waiting':
      return 'Waiting';
    case 'moving':
      return `${formatBytes(film.arrived)} of ${formatBytes(film.bytes)}`;
    case 'done':
      return role === 'send' ? 'Sent' : 'Received';
    case 'skipped':
      return role === 'send' ? `Not taken${film.note ? `: ${film.note}` : ''}` : 'Not taken';
    case 'refused':
      return 'Not received';
  }
}

/** Each film of the transfer with its progress; the speed and time left while films move. */
export function TransferProgress() {
  const { films, speed, role, phase } = useTransfer();
  if (films.length === 0) return null;
  const left = films.reduce(
    (sum, film) => sum + (film.state === 'waiting' || film.state === 'moving' ? film.bytes - film.arrived : 0),
    0,
  );
  const moving = phase.at === 'moving';
  return (
    <section aria-label="Films" className="mt-6">
      {moving && (
        <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
          {speed === null
            ? 'Measuring the speed…'
            : `${formatBytes(speed)}/s · about ${timeLeftText(left, speed)} left`}
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
                label={`${film.title}: arrived`}
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
