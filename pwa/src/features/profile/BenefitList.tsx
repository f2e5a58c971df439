import { CheckIcon } from '../../components/ui/icons.tsx';

export function BenefitList({ items, label }: { items: string[]; label: string }) {
  return (
    <ul aria-label={label} className="space-y-2">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2">
          <span className="mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300">
            <CheckIcon className="size-3.5" />
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}
