import { STAFF_NEED_NO_PLAN } from '@filamu/shared';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { FilmIcon, ShieldIcon } from '../../components/ui/icons.tsx';

/** In place of any purchase for an agent or admin: they already have full access, and a way on. */
export function StaffNote({ kind }: { kind: 'agent' | 'admin' }) {
  return (
    <Card className="mx-auto max-w-lg text-center" data-testid="staff-note">
      <ShieldIcon className="mx-auto size-10 text-green-700 dark:text-green-400" />
      <p className="mt-3 text-lg font-semibold">{STAFF_NEED_NO_PLAN[kind]}</p>
      <div className="mt-5 flex flex-col justify-center gap-3 sm:flex-row">
        <LinkButton to="/movies">
          <FilmIcon className="size-4" /> Browse Movies
        </LinkButton>
        <LinkButton to={kind === 'admin' ? '/admin' : '/dashboard'} variant="outline">
          {kind === 'admin' ? 'Admin Panel' : 'Dashboard'}
        </LinkButton>
      </div>
    </Card>
  );
}
