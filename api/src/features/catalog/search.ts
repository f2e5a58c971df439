/**
 * The library search (decision 0168): every word of the query must be found in a movie's title, VJ or description,
 * as a substring, or, for words of 4 letters and more, as a word of the title or VJ at most one edit away (two from
 * 8 letters: "kampla" finds "Kampala"). Plain loops over words already split, no regular expression on the query,
 * and the query is capped (100 characters, 8 words) so one search costs the same bounded work per movie.
 */

const MAX_SEARCH_WORDS = 8;
/** Words longer than this are compared exactly only (no one types a 30-letter title word with typos to find). */
const MAX_FUZZY_LENGTH = 24;

/** Lower-case words: runs of letters and digits (any script), the rest is a separator. */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  let current = '';
  for (const char of text.toLowerCase()) {
    if (/\p{L}|\p{N}/u.test(char)) current += char;
    else if (current) {
      words.push(current);
      current = '';
    }
  }
  if (current) words.push(current);
  return words;
}

export interface Searchable {
  /** Title, VJ and description lower-cased, for substring matches. */
  text: string;
  /** Distinct words of the title and VJ, for typo-tolerant matches. */
  words: string[];
}

export function searchableOf(movie: { title: string; vj: string; description: string | null }): Searchable {
  const text = [movie.title, movie.vj, movie.description ?? ''].join('\n').toLowerCase();
  return { text, words: [...new Set(wordsOf(`${movie.title} ${movie.vj}`))] };
}

export interface SearchQuery {
  /** The query as typed, lower-cased: found as it is, symbols included ("50%"), it matches. */
  phrase: string;
  /** Its words (at most MAX_SEARCH_WORDS), each found or forgiven. */
  words: string[];
}

/** The query, or null for an empty one. */
export function searchQueryOf(search: string | undefined): SearchQuery | null {
  const phrase = (search ?? '').trim().toLowerCase();
  return phrase ? { phrase, words: wordsOf(phrase).slice(0, MAX_SEARCH_WORDS) } : null;
}

export function matchesQuery(movie: Searchable, query: SearchQuery): boolean {
  return movie.text.includes(query.phrase) || (query.words.length > 0 && matches(movie, query.words));
}

const allowedEdits = (length: number) => (length >= 8 ? 2 : length >= 4 ? 1 : 0);

export function matches(movie: Searchable, words: string[]): boolean {
  return words.every((word) => {
    if (movie.text.includes(word)) return true;
    const edits = allowedEdits(word.length);
    if (edits === 0 || word.length > MAX_FUZZY_LENGTH) return false;
    return movie.words.some(
      (candidate) =>
        Math.abs(candidate.length - word.length) <= edits &&
        candidate.length <= MAX_FUZZY_LENGTH &&
        withinEdits(word, candidate, edits),
    );
  });
}

/** Levenshtein distance of `a` and `b` is at most `max` (rows cut short once every cell exceeds it). */
export function withinEdits(a: string, b: string, max: number): boolean {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(value);
      if (value < best) best = value;
    }
    if (best > max) return false;
    previous = row;
  }
  return previous[b.length]! <= max;
}
