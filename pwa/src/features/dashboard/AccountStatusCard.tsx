import { formatDate } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { DAYS_REMAINING_WARNING } from '../../lib/constants.ts';
import type { Access } from '../profile/access.ts';
import { Row } from './Row.tsx';

const ACCOUNT_TYPE: Record<Access, string> = { agent: 'Agent', staff: 'Admin', subscriber: 'User', free: 'User' };

/** Product §2 Account Status: type, subscription, plan, end date, days remaining. */
export function AccountStatusCard({
  access,
  plan,
  endDate,
  days,
}: {
  access: Access;
  plan: string;
  endDate: string | null;
  days: number | null;
}) {
  const withPlan = access === 'subscriber' || access === 'free';
  return (
    <Card>
      <CardTitle>Account Status</CardTitle>
      <dl className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800">
        <Row label="Account type">{ACCOUNT_TYPE[access]}</Row>
        <Row label="Subscription">
          {access === 'staff' ? (
            <Badge tone="success">Not needed</Badge>
          ) : (
            <Badge tone={access === 'free' ? 'neutral' : 'success'}>{access === 'free' ? 'Inactive' : 'Active'}</Badge>
          )}
        </Row>
        <Row label="Plan">{plan}</Row>
        <Row label="End date">{withPlan ? formatDate(endDate) : 'N/A'}</Row>
        <Row label="Days remaining">
          {!withPlan || days === null ? (
            'N/A'
          ) : (
            <Badge tone={days <= DAYS_REMAINING_WARNING ? 'danger' : 'success'}>
              {days} {days === 1 ? 'day' : 'days'}
            </Badge>
          )}
        </Row>
      </dl>
    </Card>
  );
}
