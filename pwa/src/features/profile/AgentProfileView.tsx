import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { FilmIcon, UserIcon } from '../../components/ui/icons.tsx';
import { AGENT_PLAN_LABEL } from '../../lib/constants.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { useSession } from '../../lib/session.ts';
import { AGENT_BENEFITS } from './benefits.ts';
import { BenefitList } from './BenefitList.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';

/** The agent's profile (product §2): read-only details, and a Security section to change the password. */
export function AgentProfileView() {
  useDocumentTitle('Agent Profile');
  const { agent } = useSession();
  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">Agent Profile</h1>
        <Card className="mt-6">
          <div className="flex min-w-0 items-center gap-4">
            <span className="grid size-14 place-items-center rounded-full bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
              <UserIcon className="size-7" />
            </span>
            <div className="min-w-0">
              <p className="break-words text-xl font-bold">{agent?.full_name || 'Agent'}</p>
              <p className="break-all text-stone-600 dark:text-stone-400">{agent?.email}</p>
            </div>
          </div>
          <dl className="mt-6 grid gap-4 sm:grid-cols-2">
            <div>
              <dt className="text-sm text-stone-600 dark:text-stone-400">Account Type</dt>
              <dd className="mt-1">
                <Badge tone="brand">Agent</Badge>
              </dd>
            </div>
            <div>
              <dt className="text-sm text-stone-600 dark:text-stone-400">Subscription</dt>
              <dd className="mt-1">
                <Badge tone="success">Active ({AGENT_PLAN_LABEL})</Badge>
              </dd>
            </div>
          </dl>
        </Card>
        <section aria-labelledby="agent-security" className="mt-6 space-y-3">
          <h2 id="agent-security" className="text-xl font-bold">
            Security
          </h2>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Replace the password the admin gave you with one only you know. Other devices are signed out.
          </p>
          <ChangePasswordCard kind="agent" />
        </section>
        <Card className="mt-6">
          <CardTitle>What agent access includes</CardTitle>
          <div className="mt-4">
            <BenefitList items={AGENT_BENEFITS} label="What agent access includes" />
          </div>
        </Card>
        <div className="mt-6 flex flex-wrap gap-3">
          <LinkButton to="/movies">
            <FilmIcon className="size-4" /> Browse Movies
          </LinkButton>
          <LinkButton to="/dashboard" variant="outline">
            Back to Dashboard
          </LinkButton>
        </div>
      </main>
    </div>
  );
}
