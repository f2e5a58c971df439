import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { ReactNode } from 'react';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { membershipLabel } from './access.ts';
import { DownloadsTab } from './DownloadsTab.tsx';
import { PhoneCard } from './PhoneCard.tsx';
import { ProfileTab } from './ProfileTab.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { SubscriptionTab } from './SubscriptionTab.tsx';

const TABS = ['Profile', 'Subscription', 'Downloads', 'Security'] as const;

/** Panels keep Headless UI's tabIndex=0 (their first child is a card, not a control) and show where focus is. */
function Panel({ children }: { children: ReactNode }) {
  return <TabPanel className="rounded-2xl focus-visible:outline-offset-4">{children}</TabPanel>;
}

/** The ordinary user's (and admin's) profile: product §2, with the membership badge under the title. */
export function UserProfileView() {
  useDocumentTitle('My Profile');
  const profile = useUserProfile();
  const user = profile.data;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">My Profile</h1>
        {profile.isPending && <p className="mt-6 text-stone-600 dark:text-stone-400">Loading profile...</p>}
        {profile.isError && !user && (
          <p role="alert" className="mt-6 text-red-700 dark:text-red-400">
            Failed to load profile: {errorMessage(profile.error, 'Please try again.')}
          </p>
        )}
        {user && (
          <>
            <div className="mt-2 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
              <p className="min-w-0 break-all text-stone-600 dark:text-stone-400">{user.email}</p>
              <Badge tone="brand">{membershipLabel(user)}</Badge>
            </div>
            <TabGroup className="mt-6">
              {/* Two rows of two on phones, so every tab name is whole at 360 px; one row from sm up. */}
              <TabList className="grid grid-cols-2 gap-1 rounded-xl bg-stone-100 p-1 sm:grid-cols-4 dark:bg-stone-800">
                {TABS.map((name) => (
                  <Tab
                    key={name}
                    className={({ selected }) =>
                      cn(
                        'min-h-10 rounded-lg px-2 py-2 text-sm font-semibold transition-colors',
                        'focus-visible:outline-offset-2',
                        selected
                          ? 'bg-white text-stone-950 shadow ring-1 ring-stone-300 dark:bg-stone-950 dark:text-white dark:ring-stone-600'
                          : 'text-stone-700 hover:bg-white/60 hover:text-stone-950 dark:text-stone-300 dark:hover:bg-stone-900/60 dark:hover:text-white',
                      )
                    }
                  >
                    {name}
                  </Tab>
                ))}
              </TabList>
              <TabPanels className="mt-6">
                <Panel>
                  <div className="space-y-6">
                    <ProfileTab user={user} />
                    <PhoneCard user={user} />
                  </div>
                </Panel>
                <Panel>
                  <SubscriptionTab user={user} />
                </Panel>
                <Panel>
                  <DownloadsTab />
                </Panel>
                <Panel>
                  <SecurityTab user={user} />
                </Panel>
              </TabPanels>
            </TabGroup>
          </>
        )}
      </main>
    </div>
  );
}
