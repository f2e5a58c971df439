import { useRef, useState } from 'react';
import { isApiError } from './api.ts';

type Errors<F extends PropertyKey> = Partial<Record<F, string>>;
/** The fields of a form's values that a text input edits. */
type TextField<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/** A server's field issues (`email`, `body.email`, …) onto the form's own fields; a field keeps its first issue. */
export function fieldIssues<F extends string>(error: unknown, fields: readonly F[]): Errors<F> {
  const found: Errors<F> = {};
  for (const issue of isApiError(error) ? error.issues : []) {
    const field = issue.path.split('.').pop() as F;
    if (fields.includes(field) && !found[field]) found[field] = issue.message;
  }
  return found;
}

/** A number as typed into a field ("15,000" or "15000"); undefined when left empty, for a schema to judge. */
export function typedNumber(typed: string): number | undefined {
  const text = typed.trim().replaceAll(',', '');
  return text === '' ? undefined : Number(text);
}

/** Moves focus to the first field, in the form's order, with an error, so its message is read out; false when none. */
export function focusFirstError<F extends string>(
  form: HTMLFormElement | null,
  fields: readonly F[],
  errors: Errors<F>,
): boolean {
  const first = fields.find((field) => errors[field]);
  if (first) (form?.elements.namedItem(first) as HTMLElement | null)?.focus();
  return first !== undefined;
}

/**
 * A form's values, the errors beside its fields and the one under it. `field(name)` gives an input its name, value
 * and error, and an onChange that clears the error once the person edits what it was about. `show` puts up new
 * errors and moves focus to the first field in error (`order` is the fields' order in `formRef`'s form); it says
 * whether any field has one.
 */
export function useFormFields<V extends object>(initial: V | (() => V), order: readonly TextField<V>[] = []) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Errors<keyof V>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const show = (fields: Errors<keyof V>, form: string | null): boolean => {
    setErrors(fields);
    setFormError(form);
    return focusFirstError(formRef.current, order, fields);
  };
  const field = <K extends TextField<V>>(name: K) => ({
    name,
    value: values[name] as string,
    error: errors[name],
    onChange: (e: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      if (errors[name]) setErrors((prev) => ({ ...prev, [name]: undefined }));
    },
  });
  return { values, setValues, errors, setErrors, field, formRef, formError, show };
}
