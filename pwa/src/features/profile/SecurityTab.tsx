import { displayUgandaPhone, type UserProfile } from '@filamu/shared';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { ParentalPinCard } from '../parental-pin/ParentalPinCard.tsx';
import { NotificationsCard } from '../push/NotificationsCard.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { DeviceCard } from './DeviceCard.tsx';
import { SLOT, useProfileT } from './messages.ts';

/** Where a forgotten password's code would go (decision 0148): the confirmed number by SMS (0197), or the email. */
function RecoveryCard({ user }: { user: UserProfile }) {
  const t = useProfileT();
  const phone = user.phone ? <span className="font-medium tabular-nums">{displayUgandaPhone(user.phone)}</span> : null;
  const [phoneBefore, phoneAfter] = (
    user.phone && user.phoneVerified === false
      ? t('profile.recovery.unconfirmed', { phone: SLOT })
      : t('profile.recovery.sms', { phone: SLOT })
  ).split(SLOT);
  const [emailBefore, emailAfter] = t('profile.recovery.email', { email: SLOT }).split(SLOT);
  return (
    <Card>
      <CardTitle>{t('profile.recovery.title')}</CardTitle>
      <p className="mt-2 text-sm text-stone-700 dark:text-stone-300" data-testid="recovery-phone">
        {phone ? (
          <>
            {phoneBefore}
            {phone}
            {phoneAfter}
          </>
        ) : (
          t('profile.recovery.none')
        )}
      </p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {emailBefore}
        <span className="break-all">{user.email}</span>
        {emailAfter}
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
