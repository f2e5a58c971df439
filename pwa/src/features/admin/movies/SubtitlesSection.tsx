import {
  type AdminMovie,
  formatBytes,
  SUBTITLE_LANGUAGES,
  SUBTITLE_MAX_BYTES,
  type SubtitleSummary,
} from '@filamu/shared';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { FieldLabel, fieldClasses, Input } from '../../../components/ui/Input.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useDeleteSubtitles, usePutSubtitles } from './queries.ts';
import { subtitleFileProblem } from './subtitle-file.ts';

const OTHER = 'other';

/**
 * The edit dialog's Subtitles: the languages attached (size, Remove) and Add subtitles (a language and an .srt or .vtt
 * file). Each change is saved at once, apart from the form's Save; the list follows the server's answers.
 */
export function SubtitlesSection({ movie }: { movie: AdminMovie }) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const put = usePutSubtitles();
  const remove = useDeleteSubtitles();
  const [attached, setAttached] = useState<SubtitleSummary[]>(movie.subtitles);
  const [choice, setChoice] = useState<string>(SUBTITLE_LANGUAGES[0].code);
  const [otherCode, setOtherCode] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const language = (choice === OTHER ? otherCode : choice).trim().toLowerCase();
  const replacing = attached.some((s) => s.language === language);

  const add = async () => {
    const local = subtitleFileProblem(file, language);
    setProblem(local);
    if (local || !file) return;
    try {
      const saved = await put.mutateAsync({ id: movie.id, language, text: await file.text() });
      setAttached(saved.movie.subtitles);
      setFile(null);
      if (fileRef.current) fileRef.current.value = '';
      toast.success(`${replacing ? 'Replaced' : 'Added'} subtitles for "${movie.title}".`);
    } catch (error) {
      setProblem(errorMessage(error, 'The subtitles could not be saved. Please try again.'));
    }
  };

  const drop = async (subtitle: SubtitleSummary) => {
    setProblem(null);
    try {
      const saved = await remove.mutateAsync({ id: movie.id, language: subtitle.language });
      setAttached(saved.movie.subtitles);
    } catch (error) {
      setProblem(errorMessage(error, 'The subtitles could not be removed. Please try again.'));
    }
  };

  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">Subtitles</legend>
      {attached.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">No subtitles yet.</p>
      ) : (
        <ul aria-label="Attached subtitles" className="space-y-1">
          {attached.map((subtitle) => (
            <li
              key={subtitle.language}
              className="flex min-h-11 flex-wrap items-center justify-between gap-2 rounded-lg bg-stone-100 px-3 py-1 dark:bg-stone-800"
            >
              <span className="min-w-0 break-words text-sm">
                {subtitle.label} <span className="text-stone-600 dark:text-stone-400">({subtitle.language})</span> ·{' '}
                {formatBytes(subtitle.bytes)}
              </span>
              <Button
                size="sm"
                variant="outline"
                loading={remove.isPending && remove.variables?.language === subtitle.language}
                onClick={() => void drop(subtitle)}
                aria-label={`Remove ${subtitle.label} subtitles`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor={`${id}-language`} label="Language" />
          <select
            id={`${id}-language`}
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            className={cn(fieldClasses, 'border-stone-300 dark:border-stone-700')}
          >
            {SUBTITLE_LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
            <option value={OTHER}>Other (type its code)</option>
          </select>
        </div>
        {choice === OTHER && (
          <Input
            label="Language code"
            maxLength={20}
            value={otherCode}
            hint="Like en-gb or nyn."
            onChange={(e) => setOtherCode(e.target.value)}
          />
        )}
      </div>
      <div>
        <FieldLabel htmlFor={`${id}-file`} label="File (.srt or .vtt)" />
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept=".srt,.vtt,text/vtt,application/x-subrip"
          aria-describedby={`${id}-file-hint`}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="block w-full min-w-0 text-sm text-stone-800 file:mr-3 file:min-h-11 file:rounded-xl file:border-0 file:bg-stone-100 file:px-4 file:font-semibold file:text-stone-900 hover:file:bg-stone-200 dark:text-stone-200 dark:file:bg-stone-800 dark:file:text-stone-100 dark:hover:file:bg-stone-700"
        />
        <p id={`${id}-file-hint`} className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
          SRT or WebVTT, UTF-8, at most {SUBTITLE_MAX_BYTES / 1024} KB. SRT is converted to WebVTT.
        </p>
      </div>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <Button variant="secondary" loading={put.isPending} onClick={() => void add()}>
        {replacing ? 'Replace subtitles' : 'Add subtitles'}
      </Button>
    </fieldset>
  );
}
