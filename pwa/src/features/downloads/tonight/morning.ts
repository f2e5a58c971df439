import { formatBytes } from '@filamu/shared';
import type { LocalDownload } from '../engine/record.ts';
import type { NightSpanMs } from './night-machine.ts';
import { kampalaClock } from './night-words.ts';
import { reasonWords } from '../describe.ts';
import { downloadsNightT } from './messages.ts';

/**
 * The morning after a night in night mode (issue 21/22 §2): what arrived, what did not and why, and what the night
 * saved — the night bytes of that night's films priced at the day price minus the night price.
 */
export interface MorningReport {
  arrived: Array<{ key: string; title: string }>;
  notArrived: Array<{ key: string; title: string; why: string }>;
  /** Bytes this phone received inside the window for the night's films. */
  nightBytes: number;
  /** What those bytes would have cost more by day, UGX (never below 0). */
  savedUgx: number;
}

function whyNot(record: LocalDownload, night: NightSpanMs, ranThatNight: boolean): string {
  if (!ranThatNight) return downloadsNightT('downloads-night.why.notStarted');
  const kept = downloadsNightT('downloads-night.why.kept', {
    received: formatBytes(record.committed),
    size: formatBytes(record.size),
  });
  switch (record.state) {
    case 'failed':
      return downloadsNightT('downloads-night.why.failed', {
        reason: record.message ? reasonWords(record.message) : downloadsNightT('downloads-night.why.unknown'),
      });
    case 'needs-space':
      return downloadsNightT('downloads-night.why.space');
    case 'waiting-network':
    case 'needs-url':
      return downloadsNightT('downloads-night.why.noConnection', { kept });
    default:
      return downloadsNightT('downloads-night.why.ended', { time: kampalaClock(night.closesAt), kept });
  }
}

/**
 * `films`: the films started that night with their night bytes then; `records`: this person's records now. Films
 * queued for tonight that never started that night are said too, with why.
 */
export function morningReport(
  records: readonly LocalDownload[],
  night: NightSpanMs,
  films: Readonly<Record<string, number>>,
  dayPricePerGbUgx: number,
  nightPricePerGbUgx: number,
): MorningReport {
  const report: MorningReport = { arrived: [], notArrived: [], nightBytes: 0, savedUgx: 0 };
  for (const record of records) {
    const ranThatNight = record.key in films;
    if (!ranThatNight && !(record.nightOnly && record.state !== 'complete' && record.state !== 'cancelled')) continue;
    if (record.state === 'cancelled') continue;
    if (ranThatNight) report.nightBytes += Math.max(0, (record.nightBytes ?? 0) - films[record.key]!);
    if (record.state === 'complete' && ranThatNight) report.arrived.push({ key: record.key, title: record.title });
    else report.notArrived.push({ key: record.key, title: record.title, why: whyNot(record, night, ranThatNight) });
  }
  // As the server's analytics count it (nightBytes × (day − night) / 10⁹), not the size dialog's rounded estimates.
  report.savedUgx = Math.max(0, Math.round((report.nightBytes * (dayPricePerGbUgx - nightPricePerGbUgx)) / 1e9));
  return report;
}
