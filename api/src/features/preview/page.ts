import { ENGLISH_UNLOCK_SHORT, type MovieCategoryName } from '@filamu/shared';
import { PREVIEW_STYLE } from './style.ts';

/** A movie as the public preview shows it: nothing a guest may not see (no file, size or download link). */
export interface PreviewMovie {
  title: string;
  /** `VJ Emmy` for a Kinayuganda film, `From Filamu Originals` for an English one; null without a name. */
  credit: string | null;
  /** `All`, `PG`, `13+`. */
  rating: string;
  /** `1 h 42 min`, or null while the running time is not known. */
  runningTime: string | null;
  /** Cut to a line or two; null without one. */
  description: string | null;
  /** The narrowest poster's link; null while the movie has none. */
  poster: string | null;
  /** The plans on sale that include it, in the plans' order. */
  planNames: string[];
}

export interface PreviewSection {
  category: MovieCategoryName;
  /** The newest ones, at most the page's cap. */
  movies: PreviewMovie[];
  /** Every live movie of the category the page may show (18+ left out). */
  total: number;
  /** Titles of the category rated 18+, left out of this public page. */
  adultTitles: number;
}

export interface PreviewPlan {
  name: string;
  /** `UGX 10,000`. */
  price: string;
  /** `Access until 31 Dec 2026, 11:59 PM (Kampala) · 30 days left`. */
  access: string;
  description: string;
  features: string[];
  includesEnglish: boolean;
}

export interface PreviewContent {
  plans: PreviewPlan[];
  sections: PreviewSection[];
}

export const PREVIEW_TITLE = 'Movies and prices · Filamu';

/** Text for HTML, in an element or a quoted attribute alike. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const SECTION_HEADINGS: Record<MovieCategoryName, string> = {
  Kinayuganda: 'Kinayuganda (VJ-translated)',
  English: 'English',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `Basic`, `Basic and Premium`, `Basic, Gold and Premium`. */
function listOf(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const LOGO =
  '<svg viewBox="0 0 64 64" width="32" height="32" aria-hidden="true"><rect width="64" height="64" rx="14" fill="#c2410c"/>' +
  '<circle cx="32" cy="32" r="22.5" fill="none" stroke="#fff7ed" stroke-width="3.2"/><path d="M24.3 20.5v23L37.8 32z" fill="#fff7ed"/></svg>';

const ACTIONS =
  '<a class="button" href="/register">Create an account</a><a class="button secondary" href="/login">Sign in</a>';

function planCard(plan: PreviewPlan): string {
  const features = plan.features.map((feature) => `<li>${escapeHtml(feature)}</li>`).join('');
  return (
    `<li class="plan"><h3>${escapeHtml(plan.name)}</h3><p class="price">${escapeHtml(plan.price)}</p>` +
    `<p class="access">${escapeHtml(plan.access)}</p>` +
    (plan.description ? `<p>${escapeHtml(plan.description)}</p>` : '') +
    (features ? `<ul class="features">${features}</ul>` : '') +
    (plan.includesEnglish ? `<p class="note">${escapeHtml(ENGLISH_UNLOCK_SHORT)}</p>` : '') +
    '</li>'
  );
}

function plansSection(plans: PreviewPlan[]): string {
  const body =
    plans.length === 0
      ? '<p>No plan is on sale at this moment. Create an account and we will show the plans as soon as one opens.</p>'
      : `<ul class="plans">${plans.map(planCard).join('')}</ul>` +
        '<p class="small">You pay once with MTN or Airtel mobile money; nothing renews by itself. Everyone on a plan ' +
        'keeps access until the same end date, so the price buys less time the later you join.</p>';
  return `<section aria-labelledby="plans"><h2 id="plans">Plans and prices</h2>${body}</section>`;
}

function movieCard(movie: PreviewMovie): string {
  const picture = movie.poster
    ? `<img src="${escapeHtml(movie.poster)}" width="160" height="90" loading="lazy" decoding="async" alt="">`
    : '<span class="poster" aria-hidden="true"></span>';
  const facts = [movie.credit, movie.runningTime, `Rated ${movie.rating}`].filter((fact): fact is string => !!fact);
  const plans = movie.planNames.length > 0 ? `In ${listOf(movie.planNames)}` : 'Not in a plan on sale now';
  return (
    `<li class="movie">${picture}<div><h3>${escapeHtml(movie.title)}</h3>` +
    `<p class="facts">${facts.map(escapeHtml).join(' · ')}</p>` +
    (movie.description ? `<p class="desc">${escapeHtml(movie.description)}</p>` : '') +
    `<p class="in">${escapeHtml(plans)}</p></div></li>`
  );
}

function moviesSection(section: PreviewSection): string {
  const id = `movies-${section.category.toLowerCase()}`;
  const notes: string[] = [];
  if (section.movies.length < section.total) {
    notes.push(`The ${section.movies.length} newest of ${section.total}. Sign in to search all of them.`);
  }
  if (section.adultTitles > 0) {
    notes.push(
      `${plural(section.adultTitles, 'title')} rated 18+ ${section.adultTitles === 1 ? 'is' : 'are'} not shown on ` +
        'this public page; the library shows them after you sign in.',
    );
  }
  if (section.category === 'English' && section.total > 0) notes.push(ENGLISH_UNLOCK_SHORT);
  const list =
    section.movies.length > 0
      ? `<ul class="movies">${section.movies.map(movieCard).join('')}</ul>`
      : `<p>No ${section.category} movies yet.</p>`;
  return (
    `<section aria-labelledby="${id}"><h2 id="${id}">${SECTION_HEADINGS[section.category]} ` +
    `<span class="count">${plural(section.total, 'movie')}</span></h2>${list}` +
    notes.map((note) => `<p class="small">${escapeHtml(note)}</p>`).join('') +
    '</section>'
  );
}

/**
 * The whole preview page: plain HTML and a small inline style sheet, no script (docs/decisions/0215). Every text
 * from the database goes through escapeHtml.
 */
export function renderPreviewPage(content: PreviewContent): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="color-scheme" content="light dark"><meta name="theme-color" content="#7c2d12">' +
    '<meta name="description" content="The movies on Filamu and what the plans cost, before you sign up.">' +
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' +
    `<title>${escapeHtml(PREVIEW_TITLE)}</title><style>${PREVIEW_STYLE}</style></head><body>` +
    '<a class="skip" href="#main">Skip to the movies and prices</a>' +
    `<header><a class="brand" href="/">${LOGO}<span>Filamu</span></a>` +
    '<nav aria-label="Account"><a href="/login">Sign in</a><a href="/register">Create an account</a></nav></header>' +
    '<main id="main"><h1>Movies and prices</h1>' +
    '<p class="lead">What Filamu has today and what it costs, before you sign up. Subscribers download each movie ' +
    'once, in the size that suits their data, and watch it offline.</p>' +
    plansSection(content.plans) +
    `<div class="actions">${ACTIONS}</div>` +
    content.sections.map(moviesSection).join('') +
    `<div class="actions">${ACTIONS}</div></main>` +
    '<footer><a href="/">Home</a><a href="/terms">Terms</a><a href="/privacy-policy">Privacy</a>' +
    '<a href="/contact-us">Contact us</a></footer></body></html>'
  );
}
