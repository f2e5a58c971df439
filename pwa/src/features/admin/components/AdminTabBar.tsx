import { useCallback, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { cn } from '../../../components/ui/cn.ts';
import { ADMIN_TABS } from '../tabs.ts';

/** How much of a tab must hide past an edge before the edge shows its hint (sub-pixel rounding aside). */
const EDGE_SLACK_PX = 2;
/** The width of an edge's fade (w-10). */
const EDGE_HINT_PX = 40;

/**
 * The console's tabs as links. On a phone they do not fit, so the bar scrolls sideways; a fading edge with an
 * arrow says on which side more tabs wait (a cut word alone did not), and the open tab is scrolled into view,
 * so /admin/agents opened directly shows "Agents" (docs/decisions/0186).
 */
export function AdminTabBar() {
  const scroller = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  const { pathname } = useLocation();

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const before = el.scrollLeft > EDGE_SLACK_PX;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - EDGE_SLACK_PX;
    setMore((m) => (m.before === before && m.after === after ? m : { before, after }));
  }, []);

  useEffect(() => {
    const el = scroller.current;
    const active = el?.querySelector<HTMLElement>('[aria-current="page"]');
    // Scrolls the bar only (scrollIntoView could move the page too); the margin keeps the arrow off the tab.
    if (el && active) {
      const left = active.offsetLeft;
      const right = left + active.offsetWidth;
      if (left < el.scrollLeft) el.scrollLeft = left - EDGE_HINT_PX;
      else if (right > el.scrollLeft + el.clientWidth) el.scrollLeft = right - el.clientWidth + EDGE_HINT_PX;
    }
    measure();
  }, [pathname, measure]);

  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  const edge = 'pointer-events-none absolute inset-y-0 flex w-10 items-center text-lg font-bold text-stone-500';
  return (
    <div className="relative -mb-px min-w-0 flex-1">
      <nav ref={scroller} aria-label="Admin" onScroll={measure} className="overflow-x-auto [scrollbar-width:thin]">
        <ul className="flex gap-1">
          {ADMIN_TABS.map(({ path, label }) => (
            <li key={path}>
              <NavLink
                to={path}
                end
                className={({ isActive }) =>
                  cn(
                    'inline-flex min-h-12 items-center whitespace-nowrap border-b-2 px-3 text-sm font-semibold',
                    isActive
                      ? 'border-brand-700 text-brand-800 dark:border-brand-400 dark:text-brand-300'
                      : 'border-transparent text-stone-700 hover:border-stone-300 hover:text-stone-950 dark:text-stone-300 dark:hover:border-stone-600 dark:hover:text-white',
                  )
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {more.before && (
        <span
          aria-hidden="true"
          data-testid="tabs-more-before"
          className={cn(
            edge,
            'left-0 justify-start bg-gradient-to-r from-white via-white/90 dark:from-stone-950 dark:via-stone-950/90',
          )}
        >
          ‹
        </span>
      )}
      {more.after && (
        <span
          aria-hidden="true"
          data-testid="tabs-more-after"
          className={cn(
            edge,
            'right-0 justify-end bg-gradient-to-l from-white via-white/90 dark:from-stone-950 dark:via-stone-950/90',
          )}
        >
          ›
        </span>
      )}
    </div>
  );
}
