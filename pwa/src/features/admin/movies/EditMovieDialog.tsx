import {
  type AdminMovie,
  type SubtitleSummary,
  CERTIFICATE_DATE_INVALID,
  MOVIE_TITLE_REQUIRED,
  RATING_REQUIRED,
  type UpdateMovieRequest,
  VJ_REQUIRED,
} from '@filamu/shared';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { Modal, ModalTitle } from '../../../components/ui/Modal.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TextArea } from '../../../components/ui/TextArea.tsx';
import { FieldLabel, fieldClasses, Input } from '../../../components/ui/Input.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { ListThumbnail } from './ListThumbnail.tsx';
import { PlanChecklist } from './PlanChecklist.tsx';
import { RatingFields, type RatingDraft } from './RatingFields.tsx';
import { saveSubtitleChanges, SubtitleSaveError, useActivePlans, useUpdateMovie, uploadPoster } from './queries.ts';
import { hasSubtitleChanges, NO_SUBTITLE_CHANGES, type SubtitleChanges } from './subtitle-changes.ts';
import { SubtitlesSection } from './SubtitlesSection.tsx';

type Category = 'English' | 'Kinayuganda';

interface Draft extends RatingDraft {
  title: string;
  vj: string;
  description: string;
  category: Category;
  planIds: string[];
}

const draftOf = (movie: AdminMovie): Draft => ({
  title: movie.title,
  vj: movie.vj === 'N/A' ? '' : movie.vj,
  description: movie.description ?? '',
  category: movie.category,
  // An unconfirmed rating is shown, and saving it confirms it.
  rating: movie.rating,
  certificateNumber: movie.certificate_number ?? '',
  certificateDate: movie.certificate_date ?? '',
  planIds: movie.plan_ids,
});

/** What a category change does to Kinayuganda first (decision 0167), said before the admin saves it. */
function categoryChangeNotice(from: Category, to: Category): string | null {
  if (from === to) return null;
  return to === 'Kinayuganda'
    ? 'Kinayuganda first: subscribers in its plans who have not downloaded it must download it before their next English movie. What they downloaded stays theirs.'
    : 'It stops counting for Kinayuganda first: people still to download it may get English movies sooner.';
}

function problemsOf(draft: Draft, today: string): Partial<Record<keyof Draft, string>> {
  const problems: Partial<Record<keyof Draft, string>> = {};
  if (!draft.title.trim()) problems.title = MOVIE_TITLE_REQUIRED.replace(' and select a movie file', '');
  if (draft.category === 'English' && !draft.vj.trim()) problems.vj = VJ_REQUIRED;
  if (!draft.rating) problems.rating = RATING_REQUIRED;
  if (draft.certificateDate && draft.certificateDate > today) problems.certificateDate = CERTIFICATE_DATE_INVALID;
  return problems;
}

/** Only what changed is sent: an edit never rewrites a field the admin did not touch. */
function changesOf(movie: AdminMovie, draft: Draft): UpdateMovieRequest {
  const before = draftOf(movie);
  const body: Record<string, unknown> = {};
  if (draft.title.trim() !== before.title) body.title = draft.title.trim();
  if (draft.vj.trim() !== before.vj) body.vj = draft.vj.trim() || null;
  if (draft.description.trim() !== before.description) body.description = draft.description.trim() || null;
  if (draft.category !== before.category) body.category = draft.category;
  if (draft.rating !== before.rating || !movie.rating_confirmed) body.rating = draft.rating;
  if (draft.certificateNumber.trim() !== before.certificateNumber)
    body.certificateNumber = draft.certificateNumber.trim() || null;
  if (draft.certificateDate !== before.certificateDate) body.certificateDate = draft.certificateDate || null;
  const samePlans =
    draft.planIds.length === before.planIds.length && draft.planIds.every((p) => before.planIds.includes(p));
  if (!samePlans) body.planIds = draft.planIds;
  return body as UpdateMovieRequest;
}

/** The Movies tab's Edit: every detail but the file, prefilled; the poster is replaced by uploading a new one. */
export function EditMovieDialog({ movie, onClose }: { movie: AdminMovie | null; onClose: () => void }) {
  return (
    <Modal open={movie !== null} onClose={onClose} width="2xl" className="p-4 sm:p-6">
      {movie && <EditForm key={movie.id} movie={movie} onClose={onClose} />}
    </Modal>
  );
}

function EditForm({ movie, onClose }: { movie: AdminMovie; onClose: () => void }) {
  const id = useId();
  const plans = useActivePlans();
  const update = useUpdateMovie();
  const [draft, setDraft] = useState<Draft>(() => draftOf(movie));
  const [poster, setPoster] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  // The server's subtitles, and the changes to them that wait for Save (Cancel drops them with the form).
  const [subtitles, setSubtitles] = useState<SubtitleSummary[]>(movie.subtitles);
  const [subtitleChanges, setSubtitleChanges] = useState<SubtitleChanges>(NO_SUBTITLE_CHANGES);
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const today = new Date().toISOString().slice(0, 10);
  const problems = problemsOf(draft, today);
  const shown = tried ? problems : {};
  const notice = categoryChangeNotice(movie.category, draft.category);
  const posterProblem =
    poster && !poster.type.startsWith('image/') ? 'The poster must be a JPEG, PNG or WebP image.' : null;

  const previewUrl = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );
  const pickPoster = (file: File | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = file ? URL.createObjectURL(file) : null;
    setPoster(file);
    setPreview(previewUrl.current);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(problems).length > 0 || posterProblem) return;
    setSaving(true);
    setServerError(null);
    try {
      const body = changesOf(movie, draft);
      const subtitlesChanged = hasSubtitleChanges(subtitleChanges);
      if (Object.keys(body).length === 0 && !poster && !subtitlesChanged) return onClose();
      // Subtitles first: the server reads each file and may refuse one; then nothing else is saved yet, and the
      // files it took are shown as attached while the refused one stays staged to fix or drop.
      if (subtitlesChanged) {
        await saveSubtitleChanges(movie.id, subtitleChanges, (remaining, now) => {
          setSubtitleChanges(remaining);
          setSubtitles(now);
        });
      }
      if (poster) body.thumbnailS3Key = await uploadPoster(poster);
      if (Object.keys(body).length > 0) await update.mutateAsync({ id: movie.id, body });
      toast.success(`"${draft.title.trim()}" was saved.`);
      onClose();
    } catch (error) {
      setServerError(
        error instanceof SubtitleSaveError
          ? error.message
          : errorMessage(error, 'The movie could not be saved. Please try again.'),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <ModalTitle>Edit movie</ModalTitle>
      <p className="text-sm text-stone-700 dark:text-stone-300">The movie file stays as it is.</p>
      <Input
        label="Title"
        required
        maxLength={200}
        value={draft.title}
        error={shown.title}
        onChange={(e) => set({ title: e.target.value })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input
          label="VJ/Uploader"
          required={draft.category === 'English'}
          maxLength={100}
          value={draft.vj}
          error={shown.vj}
          onChange={(e) => set({ vj: e.target.value })}
        />
        <div>
          <FieldLabel htmlFor={`${id}-category`} label="Category" required />
          <select
            id={`${id}-category`}
            value={draft.category}
            aria-describedby={notice ? `${id}-notice` : undefined}
            onChange={(e) => set({ category: e.target.value as Category })}
            className={cn(fieldClasses, 'border-stone-300 dark:border-stone-700')}
          >
            <option value="Kinayuganda">Kinayuganda</option>
            <option value="English">English</option>
          </select>
        </div>
      </div>
      {notice && (
        <p
          id={`${id}-notice`}
          role="status"
          className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          {notice}
        </p>
      )}
      <TextArea
        label="Description"
        rows={3}
        maxLength={5000}
        value={draft.description}
        onChange={(e) => set({ description: e.target.value })}
      />
      <RatingFields value={draft} onChange={set} errors={shown} />
      <div>
        <FieldLabel htmlFor={`${id}-poster`} label="Replace poster" />
        <div className="flex flex-wrap items-center gap-3">
          {preview ? (
            <img src={preview} alt="New poster" className="h-12 w-20 rounded-lg object-cover" />
          ) : (
            <ListThumbnail value={movie.thumbnail_url} />
          )}
          <input
            id={`${id}-poster`}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            aria-describedby={`${id}-poster-hint`}
            onChange={(e) => pickPoster(e.target.files?.[0] ?? null)}
            className="block min-w-0 flex-1 text-sm text-stone-800 file:mr-3 file:min-h-11 file:rounded-xl file:border-0 file:bg-stone-100 file:px-4 file:font-semibold file:text-stone-900 hover:file:bg-stone-200 dark:text-stone-200 dark:file:bg-stone-800 dark:file:text-stone-100 dark:hover:file:bg-stone-700"
          />
        </div>
        <p
          id={`${id}-poster-hint`}
          className={cn(
            'mt-1.5 text-sm',
            posterProblem ? 'font-medium text-red-700 dark:text-red-400' : 'text-stone-600 dark:text-stone-400',
          )}
        >
          {posterProblem ?? 'Optional. A JPEG, PNG or WebP image.'}
        </p>
      </div>
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">Plans</legend>
        {plans.isPending ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">Loading plans…</p>
        ) : plans.isError ? (
          <LoadFailure look="line" what="plans" error={plans.error} fallback="please try again." />
        ) : (
          <PlanChecklist
            className="max-h-40"
            plans={plans.data}
            chosen={draft.planIds}
            onChange={(planIds) => set({ planIds })}
          />
        )}
        {draft.planIds.length === 0 && (
          <p className="mt-1.5 text-sm text-amber-800 dark:text-amber-300">
            In no plan: no subscriber can download it.
          </p>
        )}
      </fieldset>
      <SubtitlesSection attached={subtitles} changes={subtitleChanges} onChange={setSubtitleChanges} />
      {serverError && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {serverError}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
