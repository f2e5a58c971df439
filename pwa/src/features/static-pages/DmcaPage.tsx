import { SUPPORT } from '../../lib/constants.ts';
import { usePagesT } from './messages.ts';
import { Section, StaticPageLayout } from './StaticPageLayout.tsx';

export default function DmcaPage() {
  const t = usePagesT();
  return (
    <StaticPageLayout title={t('pages.dmca.title')} updated={t('pages.date.january2026')} legal>
      <p>
        Filamu respects the rights of filmmakers, VJs and copyright owners. If you believe a movie on Filamu infringes
        your copyright, tell us and we will act quickly.
      </p>
      <Section title={t('pages.dmca.notice')}>
        <p>
          Email <a href={`mailto:${SUPPORT.dmcaEmail}`}>{SUPPORT.dmcaEmail}</a> with:
        </p>
        <ul>
          <li>your name, address, phone number and email;</li>
          <li>the work you own and the title of the movie on Filamu you believe infringes it;</li>
          <li>
            a statement that you believe in good faith that the use is not authorised by the owner, its agent or the
            law;
          </li>
          <li>
            a statement that your notice is accurate and that you are the owner or authorised to act for the owner;
          </li>
          <li>your physical or electronic signature.</li>
        </ul>
      </Section>
      <Section title={t('pages.dmca.next')}>
        <ul>
          <li>We review every complete notice and remove or disable the movie while we look into it.</li>
          <li>
            We let the uploader know, and they may send a counter-notice if they believe the removal was a mistake.
          </li>
          <li>Accounts that repeatedly infringe are closed.</li>
        </ul>
      </Section>
      <Section title={t('pages.dmca.counter')}>
        <p>
          If your content was removed by mistake, send a counter-notice to the same address, explaining why, with your
          contact details and signature.
        </p>
      </Section>
      <Section title={t('pages.dmca.other')}>
        <p>
          General support: <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a> · {SUPPORT.office}
        </p>
      </Section>
    </StaticPageLayout>
  );
}
