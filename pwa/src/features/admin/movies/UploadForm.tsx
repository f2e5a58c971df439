import type { MovieRating } from '@filamu/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { Tabs } from '../../../components/ui/Tabs.tsx';
import { TextArea } from '../../../components/ui/TextArea.tsx';
import { Input, FieldLabel } from '../../../components/ui/Input.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { PlanChecklist } from './PlanChecklist.tsx';
import { useActivePlans, useAdminMovies } from './queries.ts';
import { RatingFields, type RatingDraft } from './RatingFields.tsx';
import { enqueueUpload } from './upload/manager.ts';
import { plansWithWholeCategory, uploadProblems } from './validation.ts';

type Category = 'English' | 'Kinayuganda';
const CATEGORIES: { category: Category; label: string }[] = [
  { category: 'English', label: 'Upload English' },
  { category: 'Kinayuganda', label: 'Upload Kinayuganda' },
];

/**
 * The two upload sub-tabs (product §2). Both take a description (a person choosing a film reads it, decision 0210);
 * the name field means the VJ who narrates a Kinayuganda film (optional) and who released an English one (required).
 */
export function UploadForms() {
  return (
    <Card>
      <Tabs
        look="pills"
        label="Upload a movie"
        panelsClassName="mt-5"
        tabs={CATEGORIES.map(({ category, label }) => ({ name: label, panel: <UploadForm category={category} /> }))}
      />
    </Card>
  );
}

function UploadForm({ category }: { category: Category }) {
  const id = useId();
  const plans = useActivePlans();
  const library = useAdminMovies();
  const [title, setTitle] = useState('');
  const [vj, setVj] = useState('');
  const [description, setDescription] = useState('');
  const [movie, setMovie] = useState<File | null>(null);
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const whole =
    plans.data && library.data
      ? plansWithWholeCategory(
          library.data,
          plans.data.map((plan) => plan.id),
          category,
        )
      : [];
  // Null until the admin ticks or unticks: then the plans holding the whole category stay ticked by default.
  const [chosenPlanIds, setPlanIds] = useState<string[] | null>(null);
  const planIds = chosenPlanIds ?? whole;
  const noRating: RatingDraft = { rating: '', certificateNumber: '', certificateDate: '' };
  const [rating, setRating] = useState<RatingDraft>(noRating);
  /** Bumped to clear the file inputs after a submit (a file input cannot be set from script). */
  const [formKey, setFormKey] = useState(0);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const english = category === 'English';
  // Untouched, the form lists what is still needed; only once something is entered does a gap count as an error.
  const started = !!(title || vj || description || movie || thumbnail || chosenPlanIds?.length || rating.rating);
  const problems = uploadProblems(
    { category, title, vj, rating: rating.rating, movie, thumbnail, planIds },
    { started },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problems.length > 0 || !movie) return;
    try {
      await enqueueUpload(
        {
          title: title.trim(),
          vj: vj.trim(),
          description: description.trim(),
          category,
          rating: rating.rating as MovieRating,
          certificateNumber: rating.certificateNumber,
          certificateDate: rating.certificateDate,
          planIds,
        },
        movie,
        thumbnail,
      );
      setTitle('');
      setVj('');
      setDescription('');
      setMovie(null);
      setThumbnail(null);
      setPlanIds(null);
      setRating(noRating);
      setSubmitError(null);
      setFormKey((k) => k + 1);
    } catch (error) {
      setSubmitError(errorMessage(error, 'The upload could not be started. Please try again.'));
    }
  };

  return (
    <form key={formKey} onSubmit={submit} noValidate className="grid gap-5 lg:grid-cols-2">
      <div className="space-y-4">
        <Input label="Movie title" required value={title} onChange={(e) => setTitle(e.target.value)} />
        <Input
          label={english ? 'VJ/Uploader' : 'VJ'}
          required={english}
          hint={
            english
              ? 'Who released it, such as the studio. The movie page shows it as “From”.'
              : 'Optional. The VJ who narrates it in Luganda, such as VJ Junior.'
          }
          value={vj}
          onChange={(e) => setVj(e.target.value)}
        />
        <TextArea
          label="Description"
          rows={3}
          maxLength={5000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <RatingFields value={rating} onChange={(change) => setRating((r) => ({ ...r, ...change }))} />
        <FileField
          label="Movie file"
          required
          accept="video/*"
          hint="A video: MP4, WebM, MKV, MOV or 3GP."
          onPick={setMovie}
        />
        <FileField
          label="Thumbnail"
          accept="image/*"
          hint="Optional. A JPEG, PNG or WebP image."
          onPick={setThumbnail}
        />
      </div>
      <div className="flex flex-col gap-4">
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">
            Subscription plans{' '}
            <span className="text-red-600 dark:text-red-400" aria-hidden="true">
              *
            </span>
          </legend>
          {plans.isPending ? (
            <Spinner className="size-5 text-brand-700 dark:text-brand-400" label="Loading plans" />
          ) : plans.isError ? (
            <LoadFailure look="line" what="subscription plans" error={plans.error} fallback="please reload the page." />
          ) : plans.data.length === 0 ? (
            <p className="text-sm text-stone-600 dark:text-stone-400">
              There are no active plans. Create or activate one in the Plans tab first.
            </p>
          ) : (
            <PlanChecklist
              className="max-h-48"
              plans={plans.data}
              chosen={planIds}
              onChange={setPlanIds}
              describe={(plan) => (
                <>
                  {plan.plan_name}{' '}
                  <span className="text-stone-600 dark:text-stone-400">
                    · UGX {plan.price_ugx.toLocaleString('en-US')}
                  </span>
                  {whole.includes(plan.id) && (
                    <span className="block text-xs text-stone-600 dark:text-stone-400">
                      Has every {category} movie so far
                    </span>
                  )}
                </>
              )}
            />
          )}
        </fieldset>
        <div className="mt-auto space-y-2">
          <Button type="submit" disabled={problems.length > 0} aria-describedby={`${id}-problems`} className="w-full">
            Upload Movie
          </Button>
          <div id={`${id}-problems`} aria-live="polite" className="text-sm text-stone-700 dark:text-stone-300">
            {/* Untouched, nothing is missing yet: one line says how to start instead of a list of gaps. */}
            {problems.length > 0 && !started && <p>Fill in the fields marked * to upload.</p>}
            {problems.length > 0 && started && (
              <ul className="list-inside list-disc space-y-0.5">
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            )}
          </div>
          {submitError && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {submitError}
            </p>
          )}
        </div>
      </div>
    </form>
  );
}

function FileField({
  label,
  required,
  accept,
  hint,
  onPick,
}: {
  label: string;
  required?: boolean;
  accept: string;
  hint: string;
  onPick: (file: File | null) => void;
}) {
  const id = useId();
  return (
    <div>
      <FieldLabel htmlFor={id} label={label} required={required} />
      <input
        id={id}
        type="file"
        accept={accept}
        required={required}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onPick(e.target.files?.[0] ?? null)}
        className="block w-full text-sm text-stone-800 file:mr-3 file:min-h-11 file:rounded-xl file:border-0 file:bg-stone-100 file:px-4 file:font-semibold file:text-stone-900 hover:file:bg-stone-200 dark:text-stone-200 dark:file:bg-stone-800 dark:file:text-stone-100 dark:hover:file:bg-stone-700"
      />
      <p id={`${id}-hint`} className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
        {hint}
      </p>
    </div>
  );
}
