import { PREVIEW_PATH } from '@filamu/shared';
import { useCallback, useEffect, useState, useSyncExternalStore, type FocusEvent } from 'react';
import { LinkButton } from '../../components/ui/Button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { PlayIcon } from '../../components/ui/icons.tsx';
import { HERO_AUTOPLAY_MS } from '../../lib/constants.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { useT, type WebMessageId } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.ts';

interface Slide {
  eyebrow: WebMessageId;
  title: WebMessageId;
  text: WebMessageId;
  gradient: string;
  accent: string;
}

const SLIDES: Slide[] = [
  {
    eyebrow: 'hero.vj.eyebrow',
    title: 'hero.vj.title',
    text: 'hero.vj.text',
    gradient: 'from-brand-950 via-brand-800 to-amber-700',
    accent: 'bg-amber-300',
  },
  {
    eyebrow: 'hero.night.eyebrow',
    title: 'hero.night.title',
    text: 'hero.night.text',
    gradient: 'from-indigo-950 via-purple-900 to-brand-800',
    accent: 'bg-fuchsia-300',
  },
  {
    eyebrow: 'hero.money.eyebrow',
    title: 'hero.money.title',
    text: 'hero.money.text',
    gradient: 'from-emerald-950 via-teal-900 to-yellow-800',
    accent: 'bg-yellow-300',
  },
  {
    eyebrow: 'hero.english.eyebrow',
    title: 'hero.english.title',
    text: 'hero.english.text',
    gradient: 'from-stone-950 via-red-950 to-brand-800',
    accent: 'bg-red-300',
  },
];

const reducedMotionQuery = () => window.matchMedia('(prefers-reduced-motion: reduce)');

/** The OS asks for less motion (never known while prerendering, so the first render always matches). */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = reducedMotionQuery();
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => reducedMotionQuery().matches,
    () => false,
  );
}

/** Decorative film strip and spotlight drawn in SVG (no external images). */
function HeroArt() {
  return (
    <svg viewBox="0 0 400 300" className="h-full w-full" aria-hidden="true">
      <defs>
        <radialGradient id="spot" cx="50%" cy="40%" r="60%">
          <stop offset="0" stopColor="#fff7ed" stopOpacity="0.55" />
          <stop offset="1" stopColor="#fff7ed" stopOpacity="0" />
        </radialGradient>
      </defs>
      <circle cx="200" cy="150" r="140" fill="url(#spot)" />
      <g transform="rotate(-8 200 150)">
        <rect x="30" y="95" width="340" height="110" rx="10" fill="#1c1917" fillOpacity="0.85" />
        {Array.from({ length: 12 }, (_, i) => (
          <g key={i}>
            <rect x={42 + i * 28} y="102" width="14" height="10" rx="2" fill="#fafaf9" fillOpacity="0.8" />
            <rect x={42 + i * 28} y="188" width="14" height="10" rx="2" fill="#fafaf9" fillOpacity="0.8" />
          </g>
        ))}
        {[0, 1, 2, 3].map((i) => (
          <rect
            key={i}
            x={44 + i * 82}
            y="120"
            width="72"
            height="60"
            rx="6"
            fill="#f97316"
            fillOpacity={0.35 + i * 0.15}
          />
        ))}
        <path d="M187 133v34l28-17z" fill="#fff7ed" />
      </g>
      <g fill="#fff7ed">
        <circle cx="60" cy="40" r="2" />
        <circle cx="340" cy="60" r="2.5" />
        <circle cx="310" cy="250" r="1.5" />
        <circle cx="90" cy="260" r="2" />
        <circle cx="370" cy="170" r="1.5" />
      </g>
    </svg>
  );
}

function HeroActions() {
  const t = useT();
  const { status, hasAccess } = useSession();
  if (status === 'loading') return <div className="h-12" aria-hidden="true" />;
  if (status === 'guest') {
    return (
      <>
        <LinkButton to="/register" size="lg" variant="inverse">
          {t('hero.join')}
        </LinkButton>
        <LinkButton to="/login" size="lg" variant="inverseOutline">
          {t('action.signIn')}
        </LinkButton>
      </>
    );
  }
  if (hasAccess) {
    return (
      <LinkButton to="/movies" size="lg" variant="inverse">
        <PlayIcon className="size-5" /> {t('action.browseMovies')}
      </LinkButton>
    );
  }
  return (
    <LinkButton to="/subscription" size="lg" variant="inverse">
      {t('action.subscribeNow')}
    </LinkButton>
  );
}

/** Four looping slides, autoplaying every HERO_AUTOPLAY_MS; paused on hover, focus or reduced motion. */
export function Hero() {
  const t = useT();
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // The person's Play/Pause choice; until they make one, the OS's reduced-motion setting decides.
  const [stoppedByChoice, setStopped] = useState<boolean | null>(null);
  const reducedMotion = usePrefersReducedMotion();
  // Before hydration (a prerendered page whose script is still on its way) the controls cannot act: disabled.
  const hydrated = useHydrated();
  const stopped = stoppedByChoice ?? reducedMotion;
  const paused = hovered || focused || stopped;

  const go = useCallback((next: number) => setIndex((next + SLIDES.length) % SLIDES.length), []);

  useEffect(() => {
    if (paused) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % SLIDES.length), HERO_AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  }, [paused]);

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  return (
    <section
      aria-roledescription="carousel"
      aria-label={t('hero.label')}
      className="relative isolate overflow-hidden text-white"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
    >
      {SLIDES.map((slide, i) => (
        <div
          key={slide.title}
          aria-hidden={i !== index}
          className={cn(
            'absolute inset-0 -z-10 bg-gradient-to-br transition-opacity duration-700',
            slide.gradient,
            i === index ? 'opacity-100' : 'opacity-0',
          )}
        />
      ))}
      <div className="mx-auto grid min-h-[34rem] max-w-6xl items-center gap-8 px-4 pb-16 pt-28 sm:px-6 md:grid-cols-2 md:pt-32">
        <div aria-live={paused ? 'polite' : 'off'} aria-atomic="true">
          {SLIDES.map((slide, i) => (
            <div
              key={slide.title}
              role="group"
              aria-roledescription="slide"
              aria-label={t('hero.slide.label', { current: i + 1, total: SLIDES.length })}
              hidden={i !== index}
            >
              <p className="inline-flex items-center gap-2 rounded-full bg-black/25 px-3 py-1 text-sm font-semibold">
                <span className={cn('size-2 rounded-full', slide.accent)} aria-hidden="true" />
                {t(slide.eyebrow)}
              </p>
              <h1 className="mt-4 text-4xl font-extrabold leading-tight tracking-tight break-words sm:text-5xl">
                {t(slide.title)}
              </h1>
              <p className="mt-4 max-w-xl text-lg text-white">{t(slide.text)}</p>
            </div>
          ))}
          <div className="mt-8 flex flex-wrap gap-3">
            <HeroActions />
          </div>
          {/* A document of its own, rendered by the server (decision 0215): a plain link, not client routing. */}
          <p className="mt-6">
            <a
              href={PREVIEW_PATH}
              className="rounded-lg text-base font-semibold text-white underline underline-offset-4 hover:decoration-2 focus-visible:outline-white"
            >
              {t('hero.preview')}
            </a>
          </p>
        </div>
        <div className="hidden h-72 md:block">
          <HeroArt />
        </div>
      </div>
      <div className="absolute inset-x-0 bottom-4 flex items-center justify-center gap-1">
        {SLIDES.map((slide, i) => (
          <button
            key={slide.title}
            type="button"
            aria-label={t('hero.slide.go', { current: i + 1, total: SLIDES.length, title: t(slide.title) })}
            aria-current={i === index ? 'true' : undefined}
            disabled={!hydrated}
            onClick={() => go(i)}
            // A 24 px target around a small dot (WCAG 2.5.8), so a thumb can hit it.
            className="group grid h-6 min-w-6 place-items-center rounded-full focus-visible:outline-white"
          >
            <span
              aria-hidden="true"
              className={cn(
                'h-2.5 rounded-full transition-all',
                i === index ? 'w-8 bg-white' : 'w-2.5 bg-white/60 group-hover:bg-white/90',
              )}
            />
          </button>
        ))}
        <button
          type="button"
          disabled={!hydrated}
          onClick={() => setStopped(!stopped)}
          aria-label={stopped ? t('hero.slideshow.play') : t('hero.slideshow.pause')}
          className="ml-2 min-h-6 rounded-full bg-black/40 px-3 py-1 text-xs font-semibold hover:bg-black/60 focus-visible:outline-white"
        >
          {stopped ? t('hero.play') : t('hero.pause')}
        </button>
      </div>
    </section>
  );
}
