import { AppHeader } from '../../components/layout/AppHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { LogOutIcon } from '../../components/ui/icons.tsx';
import { useSession } from '../../lib/session.ts';
import { useLogout } from '../auth/useLogout.ts';

/** Admin entry point; the full console (movies, subscribers, plans, agents, analytics) arrives later. */
export default function AdminPage() {
  const { name } = useSession();
  const { logout, pending } = useLogout();
  return (
    <>
      <AppHeader>
        <Badge tone="brand">Admin</Badge>
        <Button variant="ghost" size="sm" onClick={() => void logout()} loading={pending}>
          <LogOutIcon className="size-4" /> Logout
        </Button>
      </AppHeader>
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">Admin dashboard</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">Signed in as {name ?? 'Administrator'}.</p>
        <Card className="mt-6">
          <p className="text-stone-700 dark:text-stone-300">
            Movies, subscribers, plans, agents and analytics management will appear here.
          </p>
          <LinkButton to="/dashboard" variant="outline" className="mt-4">
            Back to Dashboard
          </LinkButton>
        </Card>
      </main>
    </>
  );
}
