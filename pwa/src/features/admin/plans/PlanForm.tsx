import type { AdminPlan } from '@filamu/shared';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { errorMessage, isApiError } from '../../../lib/api.ts';
import { focusFirstError } from '../../../lib/form.ts';
import { toast } from '../../../lib/toast.ts';
import { useAdminMovies } from '../movies/queries.ts';
import { ExpiryField } from './ExpiryField.tsx';
import { TextArea } from '../../../components/ui/TextArea.tsx';
import { LabelledSwitch } from '../../../components/ui/Switch.tsx';
import { MovieChooser } from './MovieChooser.tsx';
import {
  EMPTY_PLAN_FORM,
  PLAN_FIELDS,
  planChanges,
  validatePlanForm,
  valuesFromPlan,
  type PlanField,
  type PlanFormErrors,
  type PlanFormValues,
} from './plan-form.ts';
import { activeChosen, movieIdsOfPlan, sameIds } from './plan-movies.ts';
import { useCreatePlan, useUpdatePlan } from './queries.ts';

/** The API's field names (zod issue paths) → this form's fields, so a refused value is marked where it was typed. */
const API_FIELDS: Record<string, PlanField> = {
  plan_name: 'planName',
  price_ugx: 'price',
  display_order: 'displayOrder',
  global_expiry_date: 'expiryDate',
  features: 'features',
  description: 'description',
  movieIds: 'movies',
};

const NO_MOVIES = new Set<string>();

/**
 * Create mode, or edit mode filled from `plan` (product §4). Remount it (a `key`) to switch plans. Cancel or a
 * successful save resets it; failures are said inline under the form (decision 0044), successes as toasts.
 */
export function PlanForm({ plan, onFinished }: { plan: AdminPlan | null; onFinished: () => void }) {
  const [values, setValues] = useState<PlanFormValues>(() => (plan ? valuesFromPlan(plan) : EMPTY_PLAN_FORM));
  const [errors, setErrors] = useState<PlanFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const movies = useAdminMovies();
  // The plan's movies as saved (none for a new plan); `chosen` stays null until the admin changes the selection.
  const savedMovies = useMemo(
    () => (plan ? (movies.data ? movieIdsOfPlan(movies.data, plan.id) : null) : NO_MOVIES),
    [movies.data, plan],
  );
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const selectedMovies = chosen ?? savedMovies ?? NO_MOVIES;
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const busy = create.isPending || update.isPending;
  const verb = plan ? 'update' : 'create';

  // Edit was pressed in the list below: bring the filled form into view and say so to screen readers.
  useEffect(() => {
    if (!plan) return;
    headingRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    headingRef.current?.focus({ preventScroll: true });
  }, [plan]);

  const change = (patch: Partial<PlanFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setNotice(null);
    const touched = Object.keys(patch).filter((k) => errors[k as PlanField]);
    if (touched.length > 0)
      setErrors((prev) => ({ ...prev, ...Object.fromEntries(touched.map((k) => [k, undefined])) }));
  };

  const showErrors = (fields: PlanFormErrors, form: string | null) => {
    setErrors(fields);
    setFormError(form);
    focusFirstError(formRef.current, PLAN_FIELDS, fields);
  };

  const chooseMovies = (next: Set<string>) => {
    setChosen(next);
    setNotice(null);
    if (errors.movies) setErrors((prev) => ({ ...prev, movies: undefined }));
  };

  const reset = () => {
    setValues(EMPTY_PLAN_FORM);
    setChosen(null);
    setErrors({});
    setFormError(null);
    setNotice(null);
    onFinished();
  };

  const fail = (error: unknown) => {
    const fields: PlanFormErrors = {};
    for (const issue of isApiError(error) ? error.issues : []) {
      const field = API_FIELDS[issue.path.split('.')[0] ?? ''];
      if (field && !fields[field]) fields[field] = issue.message;
    }
    showErrors(fields, `Failed to ${verb} plan: ${errorMessage(error, 'Please check your connection and try again.')}`);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNotice(null);
    const { errors: found, input } = validatePlanForm(values);
    if (!input) return showErrors(found, 'Please fix the fields marked above.');
    showErrors({}, null);
    // Sent only when the selection differs from what is saved (and that is known): never a blind overwrite.
    const movieIds = chosen && savedMovies && !sameIds(chosen, savedMovies) ? [...chosen] : undefined;
    if (!plan) {
      create.mutate(
        { ...input, movieIds: [...selectedMovies] },
        {
          onSuccess: () => {
            toast.success('Plan created successfully', `${input.plan_name} is in the list below.`);
            reset();
          },
          onError: fail,
        },
      );
      return;
    }
    const body = { ...planChanges(plan, input), ...(movieIds && { movieIds }) };
    if (Object.keys(body).length === 0) return setNotice('Nothing to save: no field has changed.');
    update.mutate(
      { id: plan.id, body },
      {
        onSuccess: () => {
          toast.success('Plan updated successfully', input.plan_name);
          reset();
        },
        onError: fail,
      },
    );
  };

  const text = (name: Exclude<PlanField, 'movies'>) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => change({ [name]: e.target.value }),
  });

  const subscribers = plan?.subscriber_count ?? 0;
  const original = plan ? valuesFromPlan(plan) : null;
  const unsellableNow =
    values.isActive && values.isVisible && movies.data && activeChosen(selectedMovies, movies.data) === 0;
  const expiryMoved =
    original !== null &&
    subscribers > 0 &&
    (['expiryDate', 'hour', 'minute', 'period'] as const).some((k) => values[k] !== original[k]);

  return (
    <Card>
      {/* scroll-mt: scrolled to on Edit, it stops below the sticky header (64 px) instead of under it. */}
      <h2
        ref={headingRef}
        tabIndex={-1}
        className="scroll-mt-24 text-lg font-semibold text-stone-900 dark:text-stone-50"
      >
        {plan ? `Edit plan: ${plan.plan_name}` : 'Add a plan'}
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {plan
          ? 'Change what you need and press Update Plan; Cancel leaves the plan as it is.'
          : 'Fields marked * are required.'}
      </p>
      <form ref={formRef} onSubmit={submit} noValidate className="mt-5 grid gap-4 lg:grid-cols-4">
        <Input label="Plan name" required maxLength={80} className="lg:col-span-2" {...text('planName')} />
        <Input
          label="Price (UGX)"
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          required
          hint="Whole shillings, 0 or more"
          {...text('price')}
        />
        <Input
          label="Display order"
          type="number"
          step={1}
          required
          hint="Lower numbers show first"
          {...text('displayOrder')}
        />
        <div className="lg:col-span-4">
          <ExpiryField
            values={values}
            errors={errors}
            onChange={change}
            subscriberNote={
              expiryMoved
                ? `Changing the expiry also moves the end date of this plan's ${subscribers} current subscriber${subscribers === 1 ? '' : 's'}.`
                : undefined
            }
          />
        </div>
        <TextArea
          label="Features"
          required
          rows={5}
          hint="One per line; blank lines are dropped. Customers see the first three on the plan card."
          className="lg:col-span-2"
          {...text('features')}
        />
        <TextArea label="Description" rows={5} maxLength={1000} className="lg:col-span-2" {...text('description')} />
        <div className="min-w-0 lg:col-span-4">
          <MovieChooser
            movies={movies.data}
            loading={movies.isPending}
            error={movies.error}
            onRetry={() => void movies.refetch()}
            selected={selectedMovies}
            onChange={chooseMovies}
            warning={
              errors.movies ??
              (unsellableNow ? 'No active movie chosen: customers cannot buy this plan until it has one.' : undefined)
            }
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2 lg:col-span-4">
          <LabelledSwitch
            label="Active"
            description="Inactive plans are not sold and movies cannot be attached to them."
            checked={values.isActive}
            onChange={(isActive) => change({ isActive })}
            boxed
          />
          <LabelledSwitch
            label="Visible to customers"
            description="Hidden plans stay off the subscription page; admins can still assign them."
            checked={values.isVisible}
            onChange={(isVisible) => change({ isVisible })}
            boxed
          />
        </div>
        <div className="flex flex-wrap items-center gap-3 lg:col-span-4">
          <Button type="submit" loading={busy}>
            {busy ? (plan ? 'Updating...' : 'Creating...') : plan ? 'Update Plan' : 'Create Plan'}
          </Button>
          {plan && (
            <Button variant="outline" onClick={reset} disabled={busy}>
              Cancel
            </Button>
          )}
          {formError && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {formError}
            </p>
          )}
          {notice && (
            <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
              {notice}
            </p>
          )}
        </div>
      </form>
    </Card>
  );
}
