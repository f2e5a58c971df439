import { useId } from 'react';
import { LinkButton } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';

/** The way to films with no data (issue 19/22): to and from a phone nearby, over a hotspot. */
export function PhoneToPhoneCard() {
  const headingId = useId();
  return (
    <Card className="mt-6" role="region" aria-labelledby={headingId}>
      <CardTitle id={headingId}>Phone to phone, no data</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Send your films to a friend’s phone, or get films from theirs or an agent’s, over a hotspot. Each phone plays
        them with its own plan.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <LinkButton to="/downloads/receive" size="sm">
          Receive films
        </LinkButton>
        <LinkButton to="/downloads/send" size="sm" variant="outline">
          Send films
        </LinkButton>
      </div>
    </Card>
  );
}
