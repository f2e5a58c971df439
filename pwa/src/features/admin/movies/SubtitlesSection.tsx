import {
  formatBytes,
  SUBTITLE_LANGUAGES,
  SUBTITLE_MAX_BYTES,
  subtitleLabelOf,
  type SubtitleSummary,
} from '@filamu/shared';
import { useId, useState } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { FieldLabel, fieldClasses, Input } from '../../../components/ui/Input.tsx';
import {
  stageAdd,
  stageRemoval,
  subtitleRows,
  undoRemoval,
  type SubtitleChanges,
  type SubtitleRow,
  type SubtitleRowStatus,
} from './subtitle-changes.ts';
import { subtitleFileProblem } from './subtitle-file.ts';

const OTHER = 'other';

const STATUS_WORDS: Record<Exclude<SubtitleRowStatus, 'saved'>, string> = {
  add: 'Added when you save',
  replace: 'Replaces the current file when you save',
  remove: 'Removed when you save',
};

/** One language in the list: as saved, or what Save will do to it, with the button that takes it back. */
function SubtitleItem({ row, onRemove, onUndo }: { row: SubtitleRow; onRemove: () => void; onUndo: () => void }) {
  return (
    <li className="flex min-h-11 flex-wrap items-center justify-between gap-2 rounded-lg bg-stone-100 px-3 py-1 dark:bg-stone-800">
      <span className={cn('min-w-0 break-words text-sm', row.status === 'remove' && 'line-through')}>
        {row.label} <span className="text-stone-600 dark:text-stone-400">({row.language})</span>
        {row.fileName && <> · {row.fileName}</>} · {formatBytes(row.bytes)}
      </span>
      {row.status !== 'saved' && <Badge tone="info">{STATUS_WORDS[row.status]}</Badge>}
      {row.status === 'replace' || row.status === 'remove' ? (
        <Button
          size="sm"
          variant="outline"
          onClick={onUndo}
          aria-label={`Undo, keep the current ${row.label} subtitles`}
        >
          Undo
        </Button>
      ) : (
        <Button size="sm" variant="outline" onClick={onRemove} aria-label={`Remove ${row.label} subtitles`}>
          Remove
        </Button>
      )}
    </li>
  );
}

/**
 * The edit dialog's Subtitles: the languages attached (size, Remove) and a language with an .srt or .vtt file to add.
 * Choosing a file or pressing Remove only stages the change: the dialog's "Save changes" sends it, Cancel drops it.
 */
export function SubtitlesSection({
  attached,
  changes,
  onChange,
}: {
  attached: SubtitleSummary[];
  changes: SubtitleChanges;
  onChange: (changes: SubtitleChanges) => void;
}) {
  const id = useId();
  const [choice, setChoice] = useState<string>(SUBTITLE_LANGUAGES[0].code);
  const [otherCode, setOtherCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [staged, setStaged] = useState<string | null>(null);
  const language = (choice === OTHER ? otherCode : choice).trim().toLowerCase();
  const rows = subtitleRows(attached, changes);

  const choose = async (input: HTMLInputElement) => {
    const file = input.files?.[0] ?? null;
    // The same file can be chosen again (for another language, or after Undo).
    input.value = '';
    if (!file) return;
    const local = subtitleFileProblem(file, language);
    setProblem(local);
    setStaged(null);
    if (local) return;
    const text = await file.text();
    const replacing = attached.some((s) => s.language === language);
    onChange(stageAdd(changes, { language, fileName: file.name, bytes: file.size, text }));
    const label = subtitleLabelOf(language);
    setStaged(`${label} subtitles ${replacing ? 'will be replaced' : 'will be added'} when you save.`);
  };

  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">Subtitles</legend>
      {rows.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">No subtitles yet.</p>
      ) : (
        <ul aria-label="Attached subtitles" className="space-y-1">
          {rows.map((row) => (
            <SubtitleItem
              key={row.language}
              row={row}
              onRemove={() => {
                setStaged(null);
                onChange(stageRemoval(changes, row.language, row.status === 'saved'));
              }}
              onUndo={() => {
                setStaged(null);
                onChange(
                  row.status === 'remove'
                    ? undoRemoval(changes, row.language)
                    : stageRemoval(changes, row.language, false),
                );
              }}
            />
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
          id={`${id}-file`}
          type="file"
          accept=".srt,.vtt,text/vtt,application/x-subrip"
          aria-describedby={`${id}-file-hint`}
          onChange={(e) => void choose(e.currentTarget)}
          className="block w-full min-w-0 text-sm text-stone-800 file:mr-3 file:min-h-11 file:rounded-xl file:border-0 file:bg-stone-100 file:px-4 file:font-semibold file:text-stone-900 hover:file:bg-stone-200 dark:text-stone-200 dark:file:bg-stone-800 dark:file:text-stone-100 dark:hover:file:bg-stone-700"
        />
        <p id={`${id}-file-hint`} className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
          Choose the language, then the file: it is attached when you press Save changes. SRT or WebVTT, UTF-8, at most{' '}
          {SUBTITLE_MAX_BYTES / 1024} KB; SRT is converted to WebVTT.
        </p>
      </div>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
        {staged}
      </p>
    </fieldset>
  );
}
