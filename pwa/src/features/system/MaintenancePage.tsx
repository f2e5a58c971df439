import { SUPPORT } from '../../lib/constants.ts';
import { LogoMark } from '../../components/ui/Logo.tsx';
import { PhoneIcon, WrenchIcon } from '../../components/ui/icons.tsx';
import { buttonClasses } from '../../components/ui/Button.tsx';
import { useT } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/page.ts';

/** Shown on every route except /login and /admin while the API reports maintenance mode. */
export function MaintenancePage() {
  const t = useT();
  useDocumentTitle(t('ui.maintenance.title'));
  return (
    <main
      id="main"
      className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-950 via-stone-950 to-stone-900 p-6 text-white"
    >
      <div className="max-w-lg text-center">
        <div className="mx-auto mb-6 flex items-center justify-center gap-3">
          <LogoMark className="size-12" />
          <WrenchIcon className="size-8 text-brand-300" />
        </div>
        <h1 className="text-3xl font-extrabold sm:text-4xl">{t('ui.maintenance.heading')}</h1>
        <p className="mt-4 text-lg text-stone-300">{t('ui.maintenance.text')}</p>
        <a href={SUPPORT.phoneHref} className={buttonClasses('primary', 'lg', 'mt-8')}>
          <PhoneIcon className="size-5" />
          {t('ui.maintenance.support')}
        </a>
        <p className="mt-3 text-sm text-stone-400">{SUPPORT.phone}</p>
      </div>
    </main>
  );
}
