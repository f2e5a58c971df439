import { useId } from 'react';
import { LinkButton } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { useDownloadsT } from '../messages.ts';

/** The way to films with no data (issue 19/22): to and from a phone nearby, over a hotspot. */
export function PhoneToPhoneCard() {
  const t = useDownloadsT();
  const headingId = useId();
  return (
    <Card className="mt-6" role="region" aria-labelledby={headingId}>
      <CardTitle id={headingId}>{t('downloads.p2p.title')}</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{t('downloads.p2p.text')}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <LinkButton to="/downloads/receive" size="sm">
          {t('downloads.p2p.receive')}
        </LinkButton>
        <LinkButton to="/downloads/send" size="sm" variant="outline">
          {t('downloads.p2p.send')}
        </LinkButton>
      </div>
    </Card>
  );
}
