import { z } from 'zod';
import { Id } from './common.ts';

/** The largest subtitle file accepted, in UTF-8 bytes: a three-hour film's dialogue is about 150 KB (decision 0172). */
export const SUBTITLE_MAX_BYTES = 512 * 1024;
/** More cues than any film has (a three-hour film has 2,000–3,000): a file past it is not a subtitle file. */
export const SUBTITLE_MAX_CUES = 10_000;

/** The languages the console offers first; any other code may be typed (decision 0172). */
export const SUBTITLE_LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'lg', label: 'Luganda' },
  { code: 'sw', label: 'Swahili' },
  { code: 'nyn', label: 'Runyankole' },
  { code: 'xog', label: 'Lusoga' },
  { code: 'ach', label: 'Acholi' },
  { code: 'teo', label: 'Ateso' },
  { code: 'rw', label: 'Kinyarwanda' },
  { code: 'fr', label: 'French' },
] as const;

/** The name a language is shown under when the admin gave none: the known name, else the code itself. */
export function subtitleLabelOf(code: string): string {
  return SUBTITLE_LANGUAGES.find((l) => l.code === code)?.label ?? code.toUpperCase();
}

export const SUBTITLE_LANGUAGE_INVALID = 'Use a language code such as en, lg or sw (letters, optionally -region).';

/** A BCP-47-like code, lower-cased: 2–3 letters and at most two short subtags (`en`, `lg`, `en-gb`, `sw-tz`). */
export const SubtitleLanguage = z
  .string()
  .max(20, SUBTITLE_LANGUAGE_INVALID)
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}(?:-[a-z\d]{2,8}){0,2}$/, SUBTITLE_LANGUAGE_INVALID);

export const SubtitleParams = z.object({ id: Id, language: SubtitleLanguage });

export const SubtitleUploadRequest = z.object({
  /**
   * The file's text (SRT or WebVTT, told apart by its content). Bounded by the body limit here; the server measures
   * its UTF-8 bytes against SUBTITLE_MAX_BYTES and answers 413 past it.
   */
  text: z.string({ message: 'Choose a subtitle file (.srt or .vtt).' }).max(2 * SUBTITLE_MAX_BYTES),
  /** How the player lists it; the language's usual name when left out. */
  label: z.string().max(40).trim().min(1).optional(),
});
export type SubtitleUploadRequest = z.input<typeof SubtitleUploadRequest>;

/** One attached subtitle language as every movie view lists it. */
export const SubtitleSummary = z.object({
  language: z.string(),
  label: z.string(),
  /** Size of the WebVTT file a download fetches. */
  bytes: z.number().int(),
});
export type SubtitleSummary = z.infer<typeof SubtitleSummary>;

/** The WebVTT text (text/vtt); documented as a string. */
export const SubtitleFile = z.string();
