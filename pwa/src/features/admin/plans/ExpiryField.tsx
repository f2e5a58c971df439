import { dateToKampalaLocal, formatKampalaLocal } from '@filamu/shared';
import { Button } from '../../../components/ui/Button.tsx';
import { fieldClasses, Input } from '../../../components/ui/Input.tsx';
import type { PlanFormErrors, PlanFormValues } from './plan-form.ts';
import { to24Hour, type Period } from './time12.ts';

type ExpiryValues = Pick<PlanFormValues, 'expiryDate' | 'hour' | 'minute' | 'period'>;

const QUICK_TIMES: { label: string; hour: string; minute: string; period: Period }[] = [
  { label: '11:59 PM', hour: '11', minute: '59', period: 'PM' },
  { label: '11:59 AM', hour: '11', minute: '59', period: 'AM' },
];

/** The Kampala moment the fields describe, or null while they are incomplete. */
function localValue({ expiryDate, hour, minute, period }: ExpiryValues): string | null {
  const h = Number(hour);
  const m = Number(minute);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiryDate) || !/^\d{1,2}$/.test(hour) || !/^\d{1,2}$/.test(minute)) return null;
  if (h < 1 || h > 12 || m > 59) return null;
  return `${expiryDate}T${to24Hour({ hour: h, minute: m, period })}`;
}

/**
 * Expiry date and a 12-hour time with AM/PM (product §5), read as Kampala wall-clock time whatever the admin's
 * own time zone: the API stores `YYYY-MM-DDThh:mm` as Africa/Kampala (UTC+3, shared/src/kampala-time.ts).
 */
export function ExpiryField({
  values,
  errors,
  onChange,
  subscriberNote,
}: {
  values: ExpiryValues;
  errors: PlanFormErrors;
  onChange: (change: Partial<ExpiryValues>) => void;
  /** Said when changing the expiry would move current subscribers too. */
  subscriberNote?: string;
}) {
  const local = localValue(values);
  const past = local !== null && local <= dateToKampalaLocal(new Date());
  return (
    <fieldset className="rounded-xl border border-stone-200 p-4 dark:border-stone-800">
      <legend className="px-1 text-sm font-semibold text-stone-800 dark:text-stone-200">
        Expiry (Kampala time, UTC+3)
        <span className="ml-1 text-red-600 dark:text-red-400" aria-hidden="true">
          *
        </span>
      </legend>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Every subscriber of this plan loses access at this moment.
      </p>
      <div className="mt-3 flex flex-wrap items-start gap-3">
        <Input
          label="Expiry date"
          type="date"
          name="expiryDate"
          required
          className="w-48"
          value={values.expiryDate}
          error={errors.expiryDate}
          onChange={(e) => onChange({ expiryDate: e.target.value })}
        />
        <Input
          label="Hour"
          name="hour"
          inputMode="numeric"
          maxLength={2}
          required
          className="w-24"
          hint="1–12"
          value={values.hour}
          error={errors.hour}
          onChange={(e) => onChange({ hour: e.target.value })}
        />
        <Input
          label="Minute"
          name="minute"
          inputMode="numeric"
          maxLength={2}
          required
          className="w-24"
          hint="00–59"
          value={values.minute}
          error={errors.minute}
          onChange={(e) => onChange({ minute: e.target.value })}
        />
        <div className="w-24">
          <label htmlFor="plan-period" className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200">
            AM/PM
          </label>
          <select
            id="plan-period"
            name="period"
            value={values.period}
            onChange={(e) => onChange({ period: e.target.value as Period })}
            className={`${fieldClasses} border-stone-300 dark:border-stone-700`}
          >
            <option value="AM">AM</option>
            <option value="PM">PM</option>
          </select>
        </div>
        <div role="group" aria-label="Quick times" className="flex items-center gap-2 self-center pt-1">
          <span className="text-sm text-stone-600 dark:text-stone-400" aria-hidden="true">
            Quick:
          </span>
          {QUICK_TIMES.map(({ label, ...time }) => (
            <Button key={label} size="sm" variant="outline" onClick={() => onChange(time)}>
              {label}
            </Button>
          ))}
        </div>
      </div>
      <p aria-live="polite" className="mt-3 text-sm text-stone-700 dark:text-stone-300">
        {local ? (
          <>
            Access ends <strong>{formatKampalaLocal(local)}</strong> Kampala time.
            {past && (
              <span className="ml-1 font-medium text-red-700 dark:text-red-400">
                That moment has passed: customers will not be offered this plan.
              </span>
            )}
          </>
        ) : (
          'Pick a date and time to see when access ends.'
        )}
      </p>
      {subscriberNote && (
        <p className="mt-1 text-sm font-medium text-amber-800 dark:text-amber-300">{subscriberNote}</p>
      )}
    </fieldset>
  );
}
