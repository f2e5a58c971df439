import { contracts, type UserProfile } from '@filamu/shared';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatDate } from '@filamu/shared';
import { AppHeader } from '../../components/layout/AppHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { LogOutIcon, SmartphoneIcon } from '../../components/ui/icons.tsx';
import { Input, PasswordInput } from '../../components/ui/Input.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { DAYS_REMAINING_WARNING } from '../../lib/constants.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { useLogout } from '../auth/useLogout.ts';
import { PaymentHistoryList } from '../payments/PaymentHistoryList.tsx';
import { FREE_BENEFITS, SUBSCRIBER_BENEFITS } from './benefits.ts';
import { BenefitList } from './BenefitList.tsx';
import { DownloadsTab } from './DownloadsTab.tsx';

const TABS = ['Profile', 'Subscription', 'Downloads', 'Security'] as const;

function ProfileTab({ user }: { user: UserProfile }) {
  const [editing, setEditing] = useState(false);
  const [fullName, setFullName] = useState(user.fullName);
  const [email, setEmail] = useState(user.email);

  const update = useMutation({
    mutationFn: (body: { fullName?: string; email?: string }) => api(contracts.auth.updateProfile, { body }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.userProfile, updated);
      useSessionStore.getState().setUser(updated);
      setFullName(updated.fullName);
      setEmail(updated.email);
      setEditing(false);
      toast.success('Profile updated');
    },
    onError: (error) => toast.error('Failed to update profile', errorMessage(error, 'Please try again.')),
  });

  const startEditing = () => {
    setFullName(user.fullName);
    setEmail(user.email);
    setEditing(true);
  };
  const cancel = () => {
    setFullName(user.fullName);
    setEmail(user.email);
    setEditing(false);
  };
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const changes: { fullName?: string; email?: string } = {};
    if (fullName.trim() !== user.fullName) changes.fullName = fullName.trim();
    if (email.trim().toLowerCase() !== user.email.toLowerCase()) changes.email = email.trim();
    if (Object.keys(changes).length === 0) {
      toast.info('No changes');
      setEditing(false);
      return;
    }
    update.mutate(changes);
  };

  return (
    <Card>
      <CardTitle>Personal information</CardTitle>
      <form onSubmit={save} className="mt-4 space-y-4" noValidate>
        <Input
          label="Full Name"
          name="fullName"
          autoComplete="name"
          value={fullName}
          onChange={(e) => setFullName(e.target.value)}
          disabled={!editing}
          required
        />
        <Input
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={!editing}
          required
        />
        <div className="flex flex-wrap gap-3">
          {editing ? (
            <>
              <Button type="submit" loading={update.isPending}>
                Save Changes
              </Button>
              <Button variant="outline" onClick={cancel} disabled={update.isPending}>
                Cancel
              </Button>
            </>
          ) : (
            <Button onClick={startEditing}>Edit Profile</Button>
          )}
        </div>
      </form>
    </Card>
  );
}

function SubscriptionTab({ user }: { user: UserProfile }) {
  return (
    <div className="space-y-6">
      <Card>
        <CardTitle>Subscription</CardTitle>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-stone-600 dark:text-stone-400">Current plan</dt>
            <dd className="mt-1 text-lg font-bold">{user.subscriptionPlan ?? 'Free Trial'}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-600 dark:text-stone-400">Status</dt>
            <dd className="mt-1">
              <Badge tone={user.isSubscribed ? 'success' : 'neutral'}>
                {user.isSubscribed ? 'Active' : 'Inactive'}
              </Badge>
            </dd>
          </div>
          {user.isSubscribed && (
            <>
              <div>
                <dt className="text-sm text-stone-600 dark:text-stone-400">End date</dt>
                <dd className="mt-1 font-semibold">{formatDate(user.subscription_end_date)}</dd>
              </div>
              {user.daysRemaining !== null && (
                <div>
                  <dt className="text-sm text-stone-600 dark:text-stone-400">Days remaining</dt>
                  <dd className="mt-1">
                    <Badge tone={user.daysRemaining <= DAYS_REMAINING_WARNING ? 'danger' : 'success'}>
                      {user.daysRemaining} {user.daysRemaining === 1 ? 'day' : 'days'}
                    </Badge>
                  </dd>
                </div>
              )}
            </>
          )}
        </dl>
        <h3 className="mt-6 font-semibold">{user.isSubscribed ? 'Your benefits' : 'Free Trial includes'}</h3>
        <div className="mt-3">
          <BenefitList
            items={user.isSubscribed ? SUBSCRIBER_BENEFITS : FREE_BENEFITS}
            label={user.isSubscribed ? 'Subscriber benefits' : 'Free trial benefits'}
          />
        </div>
        <div className="mt-6">
          {user.isSubscribed ? (
            <Button disabled title="Coming soon">
              Manage Subscription
            </Button>
          ) : (
            <LinkButton to="/subscription">Upgrade to Premium</LinkButton>
          )}
        </div>
      </Card>
      <PaymentHistoryList />
    </div>
  );
}

function SecurityTab({ user }: { user: UserProfile }) {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');

  const change = useMutation({
    mutationFn: () => api(contracts.auth.changePassword, { body: { currentPassword, newPassword } }),
    onSuccess: (result) => {
      setCurrent('');
      setNew('');
      setConfirm('');
      toast.success('Password changed', result.message);
    },
    onError: (error) => toast.error('Failed to change password', errorMessage(error, 'Please try again.')),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!currentPassword || !newPassword) {
      toast.error('Missing fields', 'Please fill in current and new passwords.');
      return;
    }
    if (newPassword !== confirmPassword) {
      toast.error('Password mismatch', 'New password and confirm password do not match.');
      return;
    }
    change.mutate();
  };

  const device = user.deviceIDs[0] ?? 'N/A';
  return (
    <div className="space-y-6">
      <Card>
        <CardTitle>Change password</CardTitle>
        <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
          <PasswordInput
            label="Current Password"
            name="currentPassword"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <PasswordInput
            label="New Password"
            name="newPassword"
            autoComplete="new-password"
            hint="At least 8 characters"
            value={newPassword}
            onChange={(e) => setNew(e.target.value)}
          />
          <PasswordInput
            label="Confirm New Password"
            name="confirmPassword"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Button type="submit" loading={change.isPending}>
            Update Password
          </Button>
        </form>
      </Card>
      <Card>
        <CardTitle>Device Management</CardTitle>
        <div className="mt-4 flex items-center gap-3 rounded-xl border border-stone-200 p-4 dark:border-stone-800">
          <SmartphoneIcon className="size-6 shrink-0 text-stone-500" />
          <div className="min-w-0 flex-1">
            <p className="text-sm text-stone-600 dark:text-stone-400">Current device</p>
            <p className="truncate font-mono text-sm">{device}</p>
          </div>
          <Badge tone="success">Active</Badge>
        </div>
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          Only one device can be logged in at a time. Signing in on another device signs this one out.
        </p>
      </Card>
    </div>
  );
}

export function UserProfileView() {
  const profile = useUserProfile();
  const { logout, pending } = useLogout();
  const user = profile.data;
  const membership =
    user && (user.subscriptionPlan && user.isSubscribed ? `${user.subscriptionPlan} Member` : 'Free Trial');

  return (
    <div className="min-h-screen">
      <AppHeader>
        {membership && (
          // On narrow phones the badge sits under the title instead, so the header never widens the page.
          <Badge tone="brand" className="max-sm:hidden">
            {membership}
          </Badge>
        )}
        <Button variant="ghost" size="sm" onClick={() => void logout()} loading={pending} aria-label="Logout">
          <LogOutIcon className="size-4" />
          <span className="hidden sm:inline">Logout</span>
        </Button>
      </AppHeader>
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
            <p className="mt-1 flex flex-wrap items-center gap-2 break-all text-stone-600 dark:text-stone-400">
              {user.email}
              <Badge tone="brand" className="sm:hidden">
                {membership}
              </Badge>
            </p>
            <TabGroup className="mt-6">
              <TabList className="flex gap-1 overflow-x-auto rounded-xl bg-stone-100 p-1 dark:bg-stone-800">
                {TABS.map((name) => (
                  <Tab
                    key={name}
                    className={({ selected, focus }) =>
                      cn(
                        'flex-1 whitespace-nowrap rounded-lg px-1.5 py-2 text-sm sm:px-3 font-semibold transition-colors focus:outline-none',
                        selected
                          ? 'bg-white text-stone-950 shadow dark:bg-stone-950 dark:text-white'
                          : 'text-stone-600 hover:text-stone-900 dark:text-stone-300 dark:hover:text-white',
                        focus && 'ring-2 ring-brand-400',
                      )
                    }
                  >
                    {name}
                  </Tab>
                ))}
              </TabList>
              <TabPanels className="mt-6">
                <TabPanel className="focus:outline-none">
                  <ProfileTab user={user} />
                </TabPanel>
                <TabPanel className="focus:outline-none">
                  <SubscriptionTab user={user} />
                </TabPanel>
                <TabPanel className="focus:outline-none">
                  <DownloadsTab />
                </TabPanel>
                <TabPanel className="focus:outline-none">
                  <SecurityTab user={user} />
                </TabPanel>
              </TabPanels>
            </TabGroup>
          </>
        )}
      </main>
    </div>
  );
}
