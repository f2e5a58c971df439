import { displayUgandaPhone, type UserProfile } from '@filamu/shared';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { ParentalPinCard } from '../parental-pin/ParentalPinCard.tsx';
import { NotificationsCard } from '../push/NotificationsCard.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { DeviceCard } from './DeviceCard.tsx';

/** Where a forgotten password's code would go (decision 0148): the confirmed number by SMS (0197), or the email. */
function RecoveryCard({ user }: { user: UserProfile }) {
  return (
    <Card>
      <CardTitle>Password recovery</CardTitle>
      <p className="mt-2 text-sm text-stone-700 dark:text-stone-300" data-testid="recovery-phone">
        {user.phone && user.phoneVerified === false ? (
          <>
            Recovery codes go to <span className="font-medium tabular-nums">{displayUgandaPhone(user.phone)}</span> once
            you confirm it on the Profile tab; until then, only by email.
          </>
        ) : user.phone ? (
          <>
            Recovery codes go to <span className="font-medium tabular-nums">{displayUgandaPhone(user.phone)}</span> by
            SMS.
          </>
        ) : (
          'No phone number: recovery codes can only go by email.'
        )}
      </p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        You can also ask for one with your email, <span className="break-all">{user.email}</span>. Change your number on
        the Profile tab.
      </p>
    </Card>
  );
}

/** Profile → Security (product §2): change password, the parental PIN, where recovery codes go, the signed-in device, notifications. */
export function SecurityTab({ user }: { user: UserProfile }) {
  return (
    <div className="space-y-6">
      <ChangePasswordCard />
      <ParentalPinCard status={user.parentalPin} />
      <RecoveryCard user={user} />
      <DeviceCard user={user} />
      <NotificationsCard />
    </div>
  );
}
