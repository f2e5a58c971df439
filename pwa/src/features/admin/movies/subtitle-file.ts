import { formatBytes, SUBTITLE_LANGUAGE_INVALID, SUBTITLE_MAX_BYTES, SubtitleLanguage } from '@filamu/shared';

/** Checks the console can make before sending; the server checks everything again (and the file's content). */
export function subtitleFileProblem(file: { name: string; size: number } | null, language: string): string | null {
  if (!language) return 'Type the language code, for example nyn for Runyankole.';
  if (!SubtitleLanguage.safeParse(language).success) return SUBTITLE_LANGUAGE_INVALID;
  if (!file) return 'Choose an .srt or .vtt file.';
  const name = file.name.toLowerCase();
  if (!name.endsWith('.srt') && !name.endsWith('.vtt')) return 'Choose an .srt or .vtt file.';
  if (file.size > SUBTITLE_MAX_BYTES) {
    return `The file is ${formatBytes(file.size)}; subtitle files can be at most ${SUBTITLE_MAX_BYTES / 1024} KB.`;
  }
  return null;
}
