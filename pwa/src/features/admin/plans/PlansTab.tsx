import type { AdminPlan } from '@filamu/shared';
import { useState } from 'react';
import { TabHeading } from '../components/TabHeading.tsx';
import { DeletePlanDialogs } from './DeletePlanDialogs.tsx';
import { PlanForm } from './PlanForm.tsx';
import { PlanList } from './PlanList.tsx';
import { PlanSaleCard } from './PlanSaleCard.tsx';
import { useAdminPlans } from './queries.ts';

/** Admin → Plans (product §2, §4, §5): the create/edit form above the list of every plan. */
export default function PlansTab() {
  const plans = useAdminPlans();
  const [editing, setEditing] = useState<AdminPlan | null>(null);
  const [deleting, setDeleting] = useState<AdminPlan | null>(null);
  return (
    <>
      <TabHeading
        title="Plans"
        description="What customers can buy. Each plan ends for all its subscribers at one moment, Kampala time."
      />
      <PlanForm key={editing?.id ?? 'new'} plan={editing} onFinished={() => setEditing(null)} />
      <PlanList
        plans={plans.data}
        loading={plans.isPending}
        error={plans.error}
        onRetry={() => void plans.refetch()}
        editingId={editing?.id ?? null}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
      <PlanSaleCard />
      <DeletePlanDialogs
        plan={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(plan) => {
          if (editing?.id === plan.id) setEditing(null);
        }}
      />
    </>
  );
}
