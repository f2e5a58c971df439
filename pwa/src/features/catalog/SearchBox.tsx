import { useEffect, useId, useState } from 'react';
import { fieldClasses } from '../../components/ui/Input.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Icon } from '../../components/ui/icons.tsx';
import { SEARCH_MAX } from '../movie/library-url.ts';

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
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== text.trim()) setText(value);
  }

  useEffect(() => {
    const next = text.trim();
    if (next === value) return;
    const timer = window.setTimeout(() => onSearch(next), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value, onSearch]);

  return (
    <form
      role="search"
      aria-label="Movies"
      className="relative w-full sm:max-w-md"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search movies
      </label>
      <SearchIcon className="pointer-events-none absolute left-3.5 top-1/2 size-5 -translate-y-1/2 text-stone-500 dark:text-stone-400" />
      <input
        id={id}
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        maxLength={SEARCH_MAX}
        placeholder="Search by title, VJ or description"
        autoComplete="off"
        enterKeyHint="search"
        className={cn(fieldClasses, 'border-stone-300 pl-11 dark:border-stone-700')}
      />
    </form>
  );
}
