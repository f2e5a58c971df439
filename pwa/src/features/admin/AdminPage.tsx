import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { useDocumentTitle } from '../../lib/page.ts';
import { useSession } from '../../lib/session.ts';

/** Admin entry point; the full console (movies, subscribers, plans, agents, analytics) arrives later. */
export default function AdminPage() {
  const { name } = useSession();
  useDocumentTitle('Admin Dashboard');
  return (
    <>
      <AccountHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-extrabold tracking-tight">Admin dashboard</h1>
          <Badge tone="brand">Admin</Badge>
        </div>
        <p className="mt-2 break-words text-stone-600 dark:text-stone-400">Signed in as {name ?? 'Administrator'}.</p>
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
