import { useMemo } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { useP2pT } from '../messages.ts';
import { groupForTyping } from './signal-code.ts';
import { darkModulesPath, QUIET_ZONE, qrModules } from './qr-modules.ts';

interface QrCodeProps {
  /** A signal code from `encodeSignal`. */
  text: string;
  /** The image's accessible name. */
  label?: string;
  /** The words above the code for typing, for when the other phone's camera cannot read the QR code. */
  typingHint?: string;
  className?: string;
}

/**
 * A signal code as a QR code for the other phone's camera, with the same code beneath in groups of four to type by
 * hand. Drawn in SVG so every module has sharp edges on any screen; black on white in dark mode too, because cameras
 * and decoders look for dark modules on a light ground.
 */
export function QrCode({ text: code, label, typingHint, className }: QrCodeProps) {
  const t = useP2pT();
  const { size, path } = useMemo(() => {
    const modules = qrModules(code);
    return { size: modules.length + 2 * QUIET_ZONE, path: darkModulesPath(modules) };
  }, [code]);

  return (
    <figure className={cn('mx-auto w-full max-w-xs', className)}>
      <svg
        role="img"
        aria-label={label ?? t('phone-to-phone.qr.defaultLabel')}
        viewBox={`0 0 ${size} ${size}`}
        shapeRendering="crispEdges"
        className="block aspect-square w-full rounded-lg"
      >
        <rect width={size} height={size} fill="#ffffff" />
        <path d={path} fill="#000000" />
      </svg>
      <figcaption className="mt-3 text-sm text-stone-600 dark:text-stone-400">
        {typingHint ?? t('phone-to-phone.qr.typingHint')}
        <code className="mt-1 block font-mono text-base leading-relaxed tracking-wider break-words text-stone-900 dark:text-stone-100">
          {groupForTyping(code)}
        </code>
      </figcaption>
    </figure>
  );
}
