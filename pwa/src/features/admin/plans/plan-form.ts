import { LocalDateTime, type AdminPlan, type PlanInput, type PlanUpdate } from '@filamu/shared';
import { from24Hour, to24Hour, type Period } from './time12.ts';

/** What the plan form holds: text as typed, so half-typed values survive until submit. */
export interface PlanFormValues {
  planName: string;
  price: string;
  displayOrder: string;
  /** `YYYY-MM-DD` from the date field. */
  expiryDate: string;
  hour: string;
  minute: string;
  period: Period;
  /** One feature per line. */
  features: string;
  description: string;
  isActive: boolean;
  isVisible: boolean;
}

/** The form's fields that can be in error; `movies` is the movie chooser, which keeps its own state. */
export type PlanField = Exclude<keyof PlanFormValues, 'period' | 'isActive' | 'isVisible'> | 'movies';
export type PlanFormErrors = Partial<Record<PlanField, string>>;

/** Field order on screen: the first field in error gets focus. */
export const PLAN_FIELDS: PlanField[] = [
  'planName',
  'price',
  'displayOrder',
  'expiryDate',
  'hour',
  'minute',
  'features',
  'description',
];

/** Product §5/§9: time defaults to 12:00 AM, order to 0, both flags on. */
export const EMPTY_PLAN_FORM: PlanFormValues = {
  planName: '',
  price: '',
  displayOrder: '0',
  expiryDate: '',
  hour: '12',
  minute: '00',
  period: 'AM',
  features: '',
  description: '',
  isActive: true,
  isVisible: true,
};

/** Edit mode: the form filled from a plan, its Kampala expiry split back into date and 12-hour time. */
export function valuesFromPlan(plan: AdminPlan): PlanFormValues {
  const [date = '', time = '00:00'] = plan.global_expiry_date.split('T');
  const { hour, minute, period } = from24Hour(time);
  return {
    planName: plan.plan_name,
    price: String(plan.price_ugx),
    displayOrder: String(plan.display_order),
    expiryDate: date,
    hour: String(hour),
    minute: String(minute).padStart(2, '0'),
    period,
    features: plan.features.join('\n'),
    description: plan.description,
    isActive: plan.is_active,
    isVisible: plan.is_visible,
  };
}

/** Product §5: split by line, trimmed, empty lines dropped. */
export function parseFeatures(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

const MAX_PRICE = 100_000_000;
const MAX_ORDER = 100_000;

/**
 * The product §5 checks, with the same limits the API enforces (`shared/src/schemas/plans.ts`), so a form that
 * passes here is not refused for its shape. Returns the request body when every field is fine.
 */
export function validatePlanForm(values: PlanFormValues): { errors: PlanFormErrors; input: PlanInput | null } {
  const errors: PlanFormErrors = {};
  const name = values.planName.trim();
  if (!name) errors.planName = 'Plan name is required.';
  else if (name.length > 80) errors.planName = 'Plan name must be at most 80 characters.';

  const price = values.price.trim();
  if (!price) errors.price = 'Price is required.';
  else if (!/^\d+$/.test(price)) errors.price = 'Price must be a whole number of UGX, 0 or more.';
  else if (Number(price) > MAX_PRICE) errors.price = 'Price can be at most UGX 100,000,000.';

  const order = values.displayOrder.trim();
  if (!order) errors.displayOrder = 'Display order is required.';
  else if (!/^-?\d+$/.test(order)) errors.displayOrder = 'Display order must be a whole number.';
  else if (Math.abs(Number(order)) > MAX_ORDER)
    errors.displayOrder = 'Display order must be between -100000 and 100000.';

  const hour = values.hour.trim();
  const minute = values.minute.trim();
  const hourOk = /^\d{1,2}$/.test(hour) && Number(hour) >= 1 && Number(hour) <= 12;
  const minuteOk = /^\d{1,2}$/.test(minute) && Number(minute) <= 59;
  if (!hourOk) errors.hour = 'Enter the hour as a number from 1 to 12.';
  if (!minuteOk) errors.minute = 'Enter the minutes as a number from 00 to 59.';

  let expiry: string | null = null;
  if (!values.expiryDate) errors.expiryDate = 'Expiry date is required.';
  else if (hourOk && minuteOk) {
    const local = `${values.expiryDate}T${to24Hour({ hour: Number(hour), minute: Number(minute), period: values.period })}`;
    if (LocalDateTime.safeParse(local).success) expiry = local;
    else errors.expiryDate = 'Enter a real calendar date.';
  }

  const features = parseFeatures(values.features);
  if (features.length === 0) errors.features = 'Add at least one feature, one per line.';
  else if (features.length > 30) errors.features = `At most 30 features (you have ${features.length}).`;
  else if (features.some((f) => f.length > 200)) errors.features = 'Each feature must be at most 200 characters.';

  const description = values.description.trim();
  if (description.length > 1000) errors.description = 'Description must be at most 1000 characters.';

  if (Object.keys(errors).length > 0 || expiry === null) return { errors, input: null };
  return {
    errors,
    input: {
      plan_name: name,
      price_ugx: Number(price),
      display_order: Number(order),
      global_expiry_date: expiry,
      features,
      description,
      is_active: values.isActive,
      is_visible: values.isVisible,
    },
  };
}

/**
 * Edit mode sends only what changed, so saving one field never overwrites another admin's change to a
 * different field, and an untouched expiry never moves subscribers (docs/decisions/0012).
 */
export function planChanges(plan: AdminPlan, input: PlanInput): PlanUpdate {
  const changes: PlanUpdate = {};
  if (input.plan_name !== plan.plan_name) changes.plan_name = input.plan_name;
  if (input.price_ugx !== plan.price_ugx) changes.price_ugx = input.price_ugx;
  if (input.display_order !== plan.display_order) changes.display_order = input.display_order;
  if (input.global_expiry_date !== plan.global_expiry_date) changes.global_expiry_date = input.global_expiry_date;
  if (JSON.stringify(input.features) !== JSON.stringify(plan.features)) changes.features = input.features;
  if (input.description !== plan.description) changes.description = input.description;
  if (input.is_active !== plan.is_active) changes.is_active = input.is_active;
  if (input.is_visible !== plan.is_visible) changes.is_visible = input.is_visible;
  return changes;
}
