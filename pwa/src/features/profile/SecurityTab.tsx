import type { UserProfile } from '@filamu/shared';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { DeviceCard } from './DeviceCard.tsx';

/** Profile → Security (SPEC §2): change password, and the one signed-in device. */
export function SecurityTab({ user }: { user: UserProfile }) {
  return (
    <div className="space-y-6">
      <ChangePasswordCard />
      <DeviceCard user={user} />
    </div>
  );
}
