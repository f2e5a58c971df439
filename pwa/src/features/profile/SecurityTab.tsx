import type { UserProfile } from '@filamu/shared';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { NotificationsCard } from '../push/NotificationsCard.tsx';
import { DeviceCard } from './DeviceCard.tsx';

/** Profile → Security (SPEC §2): change password, the one signed-in device, and notifications on it. */
export function SecurityTab({ user }: { user: UserProfile }) {
  return (
    <div className="space-y-6">
      <ChangePasswordCard />
      <DeviceCard user={user} />
      <NotificationsCard />
    </div>
  );
}
