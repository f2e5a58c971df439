import { CERTIFICATE_NUMBER_MAX, MOVIE_RATINGS, RATING_LABELS } from '@filamu/shared';
import { useId } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { FieldLabel, fieldClasses, Input } from '../../../components/ui/Input.tsx';

export interface RatingDraft {
  /** Empty until chosen. */
  rating: string;
  certificateNumber: string;
  certificateDate: string;
}

/** The rating (required) and the Media Council certificate (optional), on upload and edit alike. */
export function RatingFields({
  value,
  onChange,
  errors = {},
}: {
  value: RatingDraft;
  onChange: (change: Partial<RatingDraft>) => void;
  errors?: Partial<Record<keyof RatingDraft, string>>;
}) {
  const id = useId();
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div>
        <FieldLabel htmlFor={`${id}-rating`} label="Rating" required />
        <select
          id={`${id}-rating`}
          required
          value={value.rating}
          aria-invalid={errors.rating ? true : undefined}
          aria-describedby={errors.rating ? `${id}-rating-error` : undefined}
          onChange={(e) => onChange({ rating: e.target.value })}
          className={cn(
            fieldClasses,
            errors.rating ? 'border-red-500 dark:border-red-400' : 'border-stone-300 dark:border-stone-700',
          )}
        >
          <option value="">Choose…</option>
          {MOVIE_RATINGS.map((rating) => (
            <option key={rating} value={rating}>
              {RATING_LABELS[rating]}
            </option>
          ))}
        </select>
        {errors.rating && (
          <p id={`${id}-rating-error`} className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-400">
            {errors.rating}
          </p>
        )}
      </div>
      <Input
        label="Certificate no."
        hint="Media Council, optional."
        maxLength={CERTIFICATE_NUMBER_MAX}
        value={value.certificateNumber}
        error={errors.certificateNumber}
        onChange={(e) => onChange({ certificateNumber: e.target.value })}
      />
      <Input
        label="Certificate date"
        type="date"
        value={value.certificateDate}
        error={errors.certificateDate}
        onChange={(e) => onChange({ certificateDate: e.target.value })}
      />
    </div>
  );
}
