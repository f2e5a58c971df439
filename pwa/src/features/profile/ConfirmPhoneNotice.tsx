import type { UserProfile } from '@filamu/shared';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { useProfileT } from './messages.ts';

/**
 * The dashboard's reminder while the phone is unconfirmed (decision 0197): recovery codes are not sent to it until
 * then. Nothing for a profile that does not say (older servers, profiles saved before the field existed).
 */
export function ConfirmPhoneNotice({ user, className }: { user: UserProfile; className?: string }) {
  const t = useProfileT();
  if (!user.phone || user.phoneVerified !== false) return null;
  return (
    <Card role="region" aria-labelledby="confirm-phone-title" className={className}>
      <CardTitle id="confirm-phone-title">{t('profile.phone.confirm')}</CardTitle>
      <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">{t('profile.notice.text')}</p>
      <LinkButton to="/profile" className="mt-4">
        {t('profile.phone.confirm')}
      </LinkButton>
    </Card>
  );
}
