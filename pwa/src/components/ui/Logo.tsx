import { Link } from 'react-router';
import { cn } from './cn.ts';

export function LogoMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true">
      <defs>
        <linearGradient id="filamu-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#f97316" />
          <stop offset="1" stopColor="#7c2d12" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="14" fill="url(#filamu-logo)" />
      <circle cx="32" cy="32" r="22.5" fill="none" stroke="#fff7ed" strokeWidth="3.2" />
      <path d="M24.3 20.5v23L37.8 32z" fill="#fff7ed" />
    </svg>
  );
}

/** 'Filamu' wordmark linking home. */
export function Logo({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      className={cn('inline-flex items-center gap-2 rounded-lg text-xl font-extrabold tracking-tight', className)}
    >
      <LogoMark />
      <span>Filamu</span>
    </Link>
  );
}
