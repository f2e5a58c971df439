import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { Tabs } from '../../components/ui/Tabs.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { useDocumentTitle } from '../../lib/page.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { membershipLabel } from './access.ts';
import { useProfileT } from './messages.ts';
import { DownloadsTab } from './DownloadsTab.tsx';
import { PhoneCard } from './PhoneCard.tsx';
import { ProfileTab } from './ProfileTab.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { SubscriptionTab } from './SubscriptionTab.tsx';

/** The ordinary user's (and admin's) profile: product §2, with the membership badge under the title. */
export function UserProfileView() {
  const t = useProfileT();
  useDocumentTitle(t('profile.title'));
  const profile = useUserProfile();
  const user = profile.data;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">{t('profile.title')}</h1>
        {profile.isPending && <p className="mt-6 text-stone-600 dark:text-stone-400">{t('profile.loading')}</p>}
        {profile.isError && !user && (
          <LoadFailure look="line" className="mt-6" what={t('profile.loadWhat')} error={profile.error} />
        )}
        {user && (
          <>
            <div className="mt-2 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
              <p className="min-w-0 break-all text-stone-600 dark:text-stone-400">{user.email}</p>
              <Badge tone="brand">{membershipLabel(user)}</Badge>
            </div>
            <Tabs
              look="segments"
              className="mt-6"
              panelsClassName="mt-6"
              tabs={[
                {
                  name: t('profile.tab.profile'),
                  panel: (
                    <div className="space-y-6">
                      <ProfileTab user={user} />
                      <PhoneCard user={user} />
                    </div>
                  ),
                },
                { name: t('profile.tab.subscription'), panel: <SubscriptionTab user={user} /> },
                { name: t('profile.tab.downloads'), panel: <DownloadsTab /> },
                { name: t('profile.tab.security'), panel: <SecurityTab user={user} /> },
              ]}
            />
          </>
        )}
      </main>
    </div>
  );
}
