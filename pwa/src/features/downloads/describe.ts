import { formatBytes, kampalaDate, type DownloadSize } from '@filamu/shared';
import type { LocalDownload } from './engine/record.ts';
import { downloadsT, type DownloadsMessageId } from './messages.ts';

/** A size's name on every screen: `Small` (either codec), `Standard`, `HD`, `Original`. */
const SIZE_NAMES: Record<DownloadSize, DownloadsMessageId> = {
  'small-hevc': 'downloads.sizeName.small',
  small: 'downloads.sizeName.small',
  standard: 'downloads.sizeName.standard',
  hd: 'downloads.sizeName.hd',
  original: 'downloads.sizeName.original',
};

/** `Small`, `Standard`, `HD`, `Original`, in the person's language. */
export function sizeName(size: DownloadSize): string {
  return downloadsT(SIZE_NAMES[size]);
}

/**
 * The reasons the engine stores on a record, in English (they are also reported to the server as they are): shown in
 * the person's language. A reason not listed here (the server's, already in their language) is shown as it came.
 */
const REASONS: Record<string, DownloadsMessageId> = {
  'Waiting for network': 'downloads.reason.waitingNetwork',
  // The movie button's waits (movie-action.ts).
  Reconnecting: 'downloads.state.reconnecting',
  Queued: 'downloads.state.queued',
  Finishing: 'downloads.state.finishing',
  'Waiting for Wi-Fi': 'downloads.reason.waitingWifi',
  "Waiting for tonight's night bundle": 'downloads.reason.waitingTonight',
  'Paused when the night bundle ended: the rest downloads next night.': 'downloads.reason.nightOver',
  'Not enough space on this phone. Free some space, then resume.': 'downloads.reason.needsSpace',
  'Continuing in the app: open Filamu to finish this download.': 'downloads.reason.backgroundEnded',
  'Background download did not start; continuing in the app.': 'downloads.reason.backgroundNotStarted',
  'The downloaded file is not the expected size.': 'downloads.reason.wrongSize',
  'The file on the server is not the expected size.': 'downloads.reason.serverWrongSize',
  'The server sent more bytes than the file holds.': 'downloads.reason.tooManyBytes',
  'The connection stalled.': 'downloads.reason.stalled',
  'The connection closed before the end of the file.': 'downloads.reason.closedEarly',
  'Network error': 'downloads.reason.network',
  'Something went wrong.': 'downloads.reason.unknown',
  // What a film file from another phone may be refused for (film-file.ts, receive-film.ts, OpenFilmFile.tsx).
  'This is not a Filamu film file.': 'downloads.file.notFilamu',
  'This file is from an older Filamu. Download the film again, or ask the sender for a new copy.':
    'downloads.file.older',
  'This film file needs a newer Filamu. Open Filamu once while online so it can update, then try again.':
    'downloads.file.newer',
  'This film file is damaged or incomplete. Ask the sender for it again.': 'downloads.file.damaged',
  'This film was not made by Filamu, or it was changed on the way. Ask the sender for it again.':
    'downloads.file.notSigned',
  'This film is in a format this phone cannot play (a Small for phones that play HEVC). Download it on this phone instead: Filamu gives each phone a size it plays.':
    'downloads.file.cannotPlay',
  'It plays once this phone is online and signed in: its licence takes a few KB of data.': 'downloads.file.noLicence',
  'The film file could not be opened. Check the space on your phone and try again.': 'downloads.file.failed',
  'This movie is no longer available.': 'downloads.reason.gone',
  'Bad response': 'downloads.reason.badResponse',
  'No response body reader available': 'downloads.reason.badResponse',
};

/** A stored reason in the person's language (`The server is busy: resuming in 30 s` included). */
export function reasonWords(message: string): string {
  const id = REASONS[message];
  if (id) return downloadsT(id);
  const busy = /^The server is busy: resuming in (\d+) (s|min)$/.exec(message);
  if (busy) {
    return busy[2] === 's'
      ? downloadsT('downloads.reason.busySeconds', { seconds: busy[1]! })
      : downloadsT('downloads.reason.busyMinutes', { minutes: busy[1]! });
  }
  const arrived = /^Only (\d+)% of this film file arrived\. Ask the sender for it again\.$/.exec(message);
  if (arrived) return downloadsT('downloads.file.partial', { percent: arrived[1]! });
  const part = /^Part (\d+) of (\d+) of this film file is damaged\. Ask the sender for it again\.$/.exec(message);
  if (part) return downloadsT('downloads.file.damagedPart', { part: part[1]!, parts: part[2]! });
  return message;
}

/**
 * Time left at a speed, as `lib/eta.ts` says it (`Less than a minute left`, `12 min left`, `1 h 5 min left`), or the
 * time a download takes (`12 min to download`), in the person's language.
 */
export function timeWords(seconds: number, kind: 'left' | 'toDownload' = 'left'): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.ceil(seconds / 60);
  const left = kind === 'left';
  if (total <= 1) return downloadsT(left ? 'downloads.time.left.underMinute' : 'downloads.time.take.underMinute');
  if (total < 60) {
    return downloadsT(left ? 'downloads.time.left.minutes' : 'downloads.time.take.minutes', { minutes: total });
  }
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (minutes === 0) return downloadsT(left ? 'downloads.time.left.hours' : 'downloads.time.take.hours', { hours });
  return downloadsT(left ? 'downloads.time.left.hoursMinutes' : 'downloads.time.take.hoursMinutes', {
    hours,
    minutes,
  });
}

/** The state of a download on this device, in words for the person. */
export function stateWords(record: Pick<LocalDownload, 'state' | 'message'>): string {
  switch (record.state) {
    case 'queued':
      return downloadsT('downloads.state.queued');
    case 'downloading':
      return downloadsT('downloads.state.downloading');
    case 'waiting-network':
      // 'Waiting for Wi-Fi' when the person asked for Wi-Fi only.
      return record.message ? reasonWords(record.message) : downloadsT('downloads.reason.waitingNetwork');
    case 'paused':
      // A film for tonight says it waits for the night bundle, or why it stopped.
      return record.message ? reasonWords(record.message) : downloadsT('downloads.state.paused');
    case 'needs-url':
      return downloadsT('downloads.state.reconnecting');
    case 'needs-space':
      return record.message ? reasonWords(record.message) : downloadsT('downloads.reason.needsSpace');
    case 'verifying':
      return downloadsT('downloads.state.finishing');
    case 'complete':
      return downloadsT('downloads.state.downloaded');
    case 'failed':
      return downloadsT('downloads.state.failed', {
        reason: record.message ? reasonWords(record.message) : downloadsT('downloads.reason.unknown'),
      });
    case 'cancelled':
      return downloadsT('downloads.state.cancelled');
  }
}

/** `1.5 MB/s`. */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Unfinished downloads first (oldest first, as queued), then finished ones, newest first. */
export function displayOrder(records: LocalDownload[]): LocalDownload[] {
  const finished = (r: LocalDownload) => r.state === 'complete';
  return [...records].sort((a, b) => {
    if (finished(a) !== finished(b)) return finished(a) ? 1 : -1;
    return finished(a) ? (b.completedAt ?? 0) - (a.completedAt ?? 0) : a.createdAt - b.createdAt;
  });
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A Kampala day (`YYYY-MM-DD`) in a list of days: `Today`, `Yesterday`, else `Wed 25 Nov`. */
export function dayWords(day: string, now: number): string {
  const today = kampalaDate(new Date(now));
  if (day === today) return downloadsT('downloads.date.today');
  if (day === kampalaDate(new Date(now - 86_400_000))) return downloadsT('downloads.date.yesterday');
  // Noon UTC of that date: its UTC getters give the calendar day itself, whatever the device's zone.
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return downloadsT('downloads.date.day', {
    weekday: WEEKDAYS[date.getUTCDay()]!,
    day: date.getUTCDate(),
    month: MONTHS[date.getUTCMonth()]!,
  });
}

/** An instant's Kampala day as `1 December` (`formatDayMonth`'s words), in the person's language. */
export function dayMonthWords(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return 'N/A';
  const [, month, day] = kampalaDate(new Date(time)).split('-');
  return downloadsT('downloads.date.dayMonth', { day: Number(day), month: MONTHS[Number(month) - 1]! });
}

/** A Kampala month (`YYYY-MM`) as `November 2026`. */
export function monthWords(month: string): string {
  const [year, number] = month.split('-');
  const index = Number(number) - 1;
  if (!year || !(index >= 0 && index < 12)) return month;
  return downloadsT('downloads.date.month', { month: MONTHS[index]!, year });
}
