/**
 * Linear replacements for the regexes that re-scan a run of one character (`/\/+$/`, `/0+$/`): on a long run
 * followed by anything else those restart at every position of the run, quadratic in its length (decision 0103).
 */

/** `text` without the run of `char` at its end. */
export function trimTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** A base URL or path without its trailing slashes. */
export const trimTrailingSlashes = (text: string): string => trimTrailing(text, '/');
