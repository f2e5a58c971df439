import type { ReactNode } from 'react';
import { cn } from '../../components/ui/cn.ts';
import { Icon } from '../../components/ui/icons.tsx';

type Kind = 'basic' | 'premium' | 'enterprise' | 'other';

function planKind(name: string): Kind {
  const lower = name.trim().toLowerCase();
  if (lower.includes('enterprise')) return 'enterprise';
  if (lower.includes('premium')) return 'premium';
  if (lower.includes('basic')) return 'basic';
  return 'other';
}

export function isMostPopular(name: string): boolean {
  return name.trim().toLowerCase() === 'basic';
}

const tones: Record<Kind, string> = {
  basic: 'bg-sky-100 text-sky-700 dark:bg-sky-950 dark:text-sky-300',
  premium: 'bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-300',
  enterprise: 'bg-violet-100 text-violet-700 dark:bg-violet-950 dark:text-violet-300',
  other: 'bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300',
};

const paths: Record<Kind, ReactNode> = {
  // Lightning bolt
  basic: <path d="M13 2 3 14h9l-1 8 10-12h-9l1-8z" />,
  // Crown
  premium: (
    <>
      <path d="m2 7 5 4 5-7 5 7 5-4-2 11H4L2 7z" />
      <path d="M4 21h16" />
    </>
  ),
  // Building
  enterprise: (
    <>
      <rect x="4" y="3" width="16" height="18" rx="2" />
      <path d="M9 7h1M14 7h1M9 11h1M14 11h1M9 15h1M14 15h1M10 21v-3h4v3" />
    </>
  ),
  // Star
  other: <path d="m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1L12 2z" />,
};

/** An icon chosen by plan name (product §2: basic, premium, enterprise, other). */
export function PlanIcon({ name, className }: { name: string; className?: string }) {
  const kind = planKind(name);
  return (
    <span className={cn('grid size-12 shrink-0 place-items-center rounded-xl', tones[kind], className)}>
      <Icon className="size-6">{paths[kind]}</Icon>
    </span>
  );
}
