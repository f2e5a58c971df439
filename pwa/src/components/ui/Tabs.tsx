import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export interface TabItem {
  name: string;
  panel: ReactNode;
}

const looks = {
  /** Equal segments on a tray: a page's sections (two rows of two on a phone, so every name is whole at 360 px). */
  segments: {
    list: 'grid grid-cols-2 gap-1 rounded-xl bg-stone-100 p-1 sm:grid-cols-4 dark:bg-stone-800',
    tab: 'min-h-10 rounded-lg px-2 py-2 text-sm font-semibold transition-colors focus-visible:outline-offset-2',
    selected:
      'bg-white text-stone-950 shadow ring-1 ring-stone-300 dark:bg-stone-950 dark:text-white dark:ring-stone-600',
    idle: 'text-stone-700 hover:bg-white/60 hover:text-stone-950 dark:text-stone-300 dark:hover:bg-stone-900/60 dark:hover:text-white',
  },
  /** Separate pills: a choice between forms inside one card. */
  pills: {
    list: 'flex flex-wrap gap-2',
    tab: 'min-h-11 rounded-xl px-4 text-sm font-semibold',
    selected: 'bg-brand-700 text-white dark:bg-brand-400 dark:text-stone-950',
    idle: 'bg-stone-100 text-stone-800 hover:bg-stone-200 dark:bg-stone-800 dark:text-stone-200 dark:hover:bg-stone-700',
  },
} as const;

/**
 * Tabs as Headless UI builds them (arrow keys move between tabs, each panel labelled by its tab), drawn one of two
 * ways. Panels keep their tabIndex=0 and show where focus is, since their first child is often a card.
 */
export function Tabs({
  tabs,
  label,
  look,
  className,
  panelsClassName,
}: {
  tabs: TabItem[];
  label?: string;
  look: keyof typeof looks;
  className?: string;
  panelsClassName?: string;
}) {
  const style = looks[look];
  return (
    <TabGroup className={className}>
      <TabList aria-label={label} className={style.list}>
        {tabs.map(({ name }) => (
          <Tab key={name} className={({ selected }) => cn(style.tab, selected ? style.selected : style.idle)}>
            {name}
          </Tab>
        ))}
      </TabList>
      <TabPanels className={panelsClassName}>
        {tabs.map(({ name, panel }) => (
          <TabPanel key={name} className="rounded-2xl focus-visible:outline-offset-4">
            {panel}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
