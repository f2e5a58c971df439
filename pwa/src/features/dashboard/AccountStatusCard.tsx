import { formatDate } from '@filamu/shared';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import type { Access } from '../profile/access.ts';
import { Row } from './Row.tsx';

/** What the account is, in words a person uses (not "User"); there is no trial, so none is named (decision 0185). */
const ACCOUNT_TYPE: Record<Access, string> = {
  agent: 'Agent',
  staff: 'Admin',
  subscriber: 'Subscriber',
  free: 'Customer, no plan yet',
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
  return (
    <Card>
      <CardTitle>Account Status</CardTitle>
      <dl className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800">
        <Row label="Account type">{ACCOUNT_TYPE[access]}</Row>
        {contact && (
          <Row label="Signed in as">
            <span className="break-all">{contact}</span>
          </Row>
        )}
        {memberSince && <Row label="Member since">{formatDate(memberSince)}</Row>}
      </dl>
    </Card>
  );
}
