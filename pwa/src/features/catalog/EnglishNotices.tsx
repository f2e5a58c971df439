import { Link } from 'react-router';
import { LockIcon } from '../../components/ui/icons.tsx';
import { ProgressBar } from '../../components/ui/ProgressBar.tsx';
import { libraryHref } from '../movie/library-url.ts';
import { useSession } from '../../lib/session.ts';
import { useKinayugandaProgress } from './queries.ts';
import { useCatalogT } from './messages.ts';

/** Said once above the English section while Kinayuganda movies still lock English downloads, with the progress. */
export function EnglishLockedNotice({ search }: { search: string }) {
  const t = useCatalogT();
  const progress = useKinayugandaProgress(true);
  // Agents and admins have no plan: what a plan's end does to the rule does not concern them.
  const { status, isAdmin } = useSession();
  const hasPlan = status === 'user' && !isAdmin;
  const figures = progress.data;
  const percent = figures && figures.required > 0 ? (figures.completed / figures.required) * 100 : 0;
  return (
    <div
      data-testid="english-locked"
      className="mt-4 flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <LockIcon className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{t('catalog.english.locked')}</p>
        {figures && figures.required > 0 && (
          <div className="mt-2">
            <p className="text-sm">
              {t('catalog.english.progress', { completed: figures.completed, required: figures.required })}
            </p>
            {figures.hiddenByParentalPin > 0 && (
              <p className="mt-1 text-sm font-medium" data-testid="english-hidden-by-pin">
                {t('catalog.english.hiddenByPin', { count: figures.hiddenByParentalPin })}
              </p>
            )}
            <ProgressBar
              className="mt-1.5 bg-amber-200 dark:bg-amber-900"
              percent={percent}
              label={t('catalog.english.progress.label')}
              valueText={t('catalog.english.progress.value', {
                completed: figures.completed,
                required: figures.required,
              })}
            />
          </div>
        )}
        {hasPlan && <p className="mt-2 text-sm">{t('catalog.english.keptRule')}</p>}
        <Link
          to={libraryHref(search, 'Kinayuganda')}
          className="mt-2 inline-block text-sm font-semibold underline underline-offset-2"
        >
          {t('catalog.english.showKinayuganda')}
        </Link>
      </div>
    </div>
  );
}

/**
 * Said above the English section when English was unlocked earlier in this paid period and Kinayuganda movies have
 * been added since (decision 0177): they no longer stand in the way, and downloading them is the person's choice.
 */
export function EnglishKeptNotice({ search }: { search: string }) {
  const t = useCatalogT();
  const progress = useKinayugandaProgress(true);
  const figures = progress.data;
  if (!figures?.englishKept || figures.completed >= figures.required) return null;
  const added = figures.required - figures.completed;
  return (
    <div
      data-testid="english-kept"
      className="mt-4 rounded-2xl border border-stone-200 bg-stone-50 p-4 text-sm text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200"
    >
      <p className="font-semibold">{t('catalog.english.kept')}</p>
      <p className="mt-1">
        {t('catalog.english.kept.added', { count: added, completed: figures.completed, required: figures.required })}
      </p>
      <Link
        to={libraryHref(search, 'Kinayuganda')}
        className="mt-2 inline-block font-semibold underline underline-offset-2"
      >
        {t('catalog.english.showKinayuganda')}
      </Link>
    </div>
  );
}
