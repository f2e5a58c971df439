import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { fieldClasses } from '../../components/ui/Input.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Icon } from '../../components/ui/icons.tsx';
import { SEARCH_MAX } from '../movie/library-url.ts';
import { onSent, onUrlSearch, searchText } from './search-text.ts';
import { useCatalogT } from './messages.ts';

/** Wait after the last key press before searching: one request per pause in typing, not per letter. */
const SEARCH_DEBOUNCE_MS = 300;

const SearchIcon = ({ className }: { className?: string }) => (
  <Icon className={className}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Icon>
);

/**
 * The library's search box. `value` is the search in the URL; typing updates the URL `SEARCH_DEBOUNCE_MS`
 * after the last key (Enter at once), and a URL changed from outside (back, a link) updates the box.
 *
 * The input is uncontrolled: what the person typed stays in it, and React writes it only when a search from
 * elsewhere replaces the text. Controlled, a render carrying an older text (a navigation finishing between two
 * keys on a busy phone) could write it back and lose a key.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const t = useCatalogT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [box, setBox] = useState(() => searchText(value));
  if (value !== box.seen) setBox((current) => onUrlSearch(current, value));
  const { text, replaced } = box;

  useLayoutEffect(() => {
    if (input.current && input.current.value !== text) input.current.value = text;
    // Only a replacement writes the input; `text` is read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [replaced]);

  const search = useCallback(
    (next: string) => {
      setBox((current) => onSent(current, next));
      onSearch(next);
    },
    [onSearch],
  );
  useEffect(() => {
    const next = text.trim();
    if (next === value) return;
    const timer = window.setTimeout(() => search(next), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value, search]);

  return (
    <form
      role="search"
      aria-label={t('catalog.search.form')}
      className="relative w-full sm:max-w-md"
      onSubmit={(event) => {
        event.preventDefault();
        search(text.trim());
      }}
    >
      <label htmlFor={id} className="sr-only">
        {t('catalog.search.label')}
      </label>
      <SearchIcon className="pointer-events-none absolute left-3.5 top-1/2 size-5 -translate-y-1/2 text-stone-500 dark:text-stone-400" />
      <input
        id={id}
        type="search"
        ref={input}
        defaultValue={value}
        onChange={(event) => {
          const typed = event.target.value;
          setBox((current) => ({ ...current, text: typed }));
        }}
        maxLength={SEARCH_MAX}
        placeholder={t('catalog.search.placeholder')}
        autoComplete="off"
        enterKeyHint="search"
        className={cn(fieldClasses, 'border-stone-300 pl-11 dark:border-stone-700')}
      />
    </form>
  );
}
