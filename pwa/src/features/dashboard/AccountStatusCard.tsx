import { formatDate } from '../../lib/dates.ts';
import type { DashboardMessageId } from '@filamu/shared/i18n/dashboard.en';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import type { Access } from '../profile/access.ts';
import { useDashboardT } from './messages.ts';
import { Row } from './Row.tsx';

/** What the account is, in words a person uses (not "User"); there is no trial, so none is named (decision 0185). */
const ACCOUNT_TYPE: Record<Access, string> = {
  agent: 'Agent',
  staff: 'Admin',
  subscriber: 'dashboard.account.subscriber',
  free: 'dashboard.account.free',
};

/**
 * product §2 Account Status. The plan, its end date and the days remaining are in the Subscription status card just
 * above; saying them here again made the dashboard repeat itself, so this card says who the account is.
 */
export function AccountStatusCard({
  access,
  contact,
  memberSince,
}: {
  access: Access;
  /** The email (or phone) the account signs in with. */
  contact: string | null;
  memberSince: string | null;
}) {
  const t = useDashboardT();
  // Agents and admins read English (decided): only a subscriber's words come from the catalogue.
  const type =
    access === 'subscriber' || access === 'free' ? t(ACCOUNT_TYPE[access] as DashboardMessageId) : ACCOUNT_TYPE[access];
  return (
    <Card>
      <CardTitle>{t('dashboard.account.title')}</CardTitle>
      <dl className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800">
        <Row label={t('dashboard.account.type')}>{type}</Row>
        {contact && (
          <Row label={t('dashboard.account.signedInAs')}>
            <span className="break-all">{contact}</span>
          </Row>
        )}
        {memberSince && <Row label={t('dashboard.account.memberSince')}>{formatDate(memberSince)}</Row>}
      </dl>
    </Card>
  );
}
