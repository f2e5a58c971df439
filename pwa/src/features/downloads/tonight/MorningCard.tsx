import { formatBytes, groupDigits } from '@filamu/shared';
import { useId } from 'react';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import type { MorningReport } from './morning.ts';
import { downloadsNightT, useDownloadsNightT } from './messages.ts';

/** `about UGX 1,800`; a few megabytes save less than a shilling. */
const savedWords = (ugx: number) =>
  ugx >= 1
    ? downloadsNightT('downloads-night.morning.about', { amount: groupDigits(ugx) })
    : downloadsNightT('downloads-night.morning.underOne');

/** The morning after night mode (issue 21/22 §2): what arrived, what did not and why, and the UGX the night saved. */
export function MorningCard({ report, className }: { report: MorningReport; className?: string }) {
  const t = useDownloadsNightT();
  const headingId = useId();
  return (
    <Card className={className} role="region" aria-labelledby={headingId} data-testid="morning-report">
      <CardTitle id={headingId}>{t('downloads-night.morning.title')}</CardTitle>
      {report.arrived.length > 0 && (
        <>
          <h3 className="mt-3 text-sm font-semibold">{t('downloads-night.morning.arrived')}</h3>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {report.arrived.map((film) => (
              <li key={film.key}>{film.title}</li>
            ))}
          </ul>
        </>
      )}
      {report.notArrived.length > 0 && (
        <>
          <h3 className="mt-3 text-sm font-semibold">{t('downloads-night.morning.notFinished')}</h3>
          <ul className="mt-1 space-y-1 text-sm">
            {report.notArrived.map((film) => (
              <li key={film.key}>
                <span className="font-medium">{film.title}</span>: {film.why}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.arrived.length === 0 && report.notArrived.length === 0 && (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{t('downloads-night.morning.none')}</p>
      )}
      <p className="mt-3 text-sm font-medium" data-testid="morning-saved">
        {report.nightBytes > 0
          ? t('downloads-night.morning.saved', {
              bytes: formatBytes(report.nightBytes),
              saved: savedWords(report.savedUgx),
            })
          : t('downloads-night.morning.nothing')}
      </p>
    </Card>
  );
}
