import { useState } from 'react';
import { cn } from '../../components/ui/cn.ts';
import { FilmIcon } from '../../components/ui/icons.tsx';
import { useCatalogT } from './messages.ts';

/**
 * A movie's poster in a fixed 16:9 box (no layout shift while it loads on a slow link), lazily loaded;
 * a missing or broken image becomes a placeholder saying so (product §2).
 */
export function MovieThumbnail({
  src,
  srcSet = null,
  sizes,
  alt,
  eager = false,
  compact = false,
  className,
}: {
  src: string | null;
  /** The poster in small WebP widths (`thumbnail_srcset`); `src` stays the fallback. */
  srcSet?: string | null;
  /** How wide the box is drawn, so the browser picks the narrowest poster that is sharp enough. */
  sizes?: string;
  /** Empty when the title is next to it (a decorative copy). */
  alt: string;
  eager?: boolean;
  /** A small decorative copy beside its title: a missing poster is just the film icon, without the words. */
  compact?: boolean;
  className?: string;
}) {
  const t = useCatalogT();
  const [broken, setBroken] = useState<string | null>(null);
  const showImage = !!src && broken !== src;
  return (
    <div className={cn('relative aspect-video w-full overflow-hidden bg-stone-200 dark:bg-stone-800', className)}>
      {showImage ? (
        <img
          src={src}
          srcSet={srcSet ?? undefined}
          sizes={srcSet ? sizes : undefined}
          alt={alt}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          onError={() => setBroken(src)}
          className="absolute inset-0 size-full object-cover"
        />
      ) : (
        <div
          data-testid="thumbnail-fallback"
          className="absolute inset-0 flex flex-col items-center justify-center gap-1.5 bg-gradient-to-br from-stone-200 to-stone-300 p-2 text-center text-stone-600 dark:from-stone-800 dark:to-stone-900 dark:text-stone-400"
        >
          <FilmIcon className={compact ? 'size-6' : 'size-7'} />
          {!compact && <span className="text-xs font-medium">{t('catalog.thumbnail.missing')}</span>}
        </div>
      )}
    </div>
  );
}
