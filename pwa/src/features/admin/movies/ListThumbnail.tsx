import { useState } from 'react';
import { FilmIcon } from '../../../components/ui/icons.tsx';
import { thumbnailSource } from './thumbnail.ts';

/** Content-delivery domain for `/thumbnails/…` values (product §2); the API sends full URLs, so it is rarely needed. */
const CDN_BASE_URL: string | null = (import.meta.env.VITE_CDN_BASE_URL as string | undefined) ?? null;

/** The list's small thumbnail: 'No Img' without one, a placeholder when the image fails to load. */
export function ListThumbnail({ value }: { value: string | null }) {
  const src = thumbnailSource(value, CDN_BASE_URL);
  const [broken, setBroken] = useState<string | null>(null);
  const frame =
    'flex h-12 w-20 items-center justify-center overflow-hidden rounded-lg bg-stone-200 text-stone-700 dark:bg-stone-800 dark:text-stone-300';
  if (!src) {
    return (
      <div className={frame}>
        <span className="text-xs font-semibold">No Img</span>
      </div>
    );
  }
  if (broken === src) {
    return (
      <div className={frame} role="img" aria-label="Thumbnail unavailable">
        <FilmIcon className="size-5" />
      </div>
    );
  }
  return (
    <div className={frame}>
      <img src={src} alt="" loading="lazy" onError={() => setBroken(src)} className="size-full object-cover" />
    </div>
  );
}
