import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphColumns } from './font5x7.ts';
import type { RgbImage } from './png.ts';

export type { RgbImage } from './png.ts';

/** An sRGB colour, each channel 0–255. */
export type Rgb = readonly [r: number, g: number, b: number];

export function createImage(width: number, height: number): RgbImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new Error(`invalid image size ${width}x${height}`);
  }
  return { width, height, data: new Uint8Array(width * height * 3) };
}

/** `#rrggbb` → [r, g, b]. */
export function hexToRgb(hex: string): Rgb {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

/** Linear blend: t = 0 gives `a`, t = 1 gives `b`. */
export function mixRgb(a: Rgb, b: Rgb, t: number): Rgb {
  const lerp = (from: number, to: number) => Math.round(from + (to - from) * t);
  return [lerp(a[0], b[0]), lerp(a[1], b[1]), lerp(a[2], b[2])];
}

/** Fills the whole image, top row `top`, bottom row `bottom`, linearly interpolated between. */
export function fillVerticalGradient(image: RgbImage, top: Rgb, bottom: Rgb): void {
  const { width, height, data } = image;
  for (let y = 0; y < height; y++) {
    const [r, g, b] = mixRgb(top, bottom, height > 1 ? y / (height - 1) : 0);
    for (let i = y * width * 3, end = i + width * 3; i < end; i += 3) {
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
    }
  }
}

/** Fills a rectangle, clipped to the image. Coordinates are rounded to whole pixels. */
export function fillRect(image: RgbImage, x: number, y: number, w: number, h: number, colour: Rgb): void {
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(image.width, Math.round(x + w));
  const y1 = Math.min(image.height, Math.round(y + h));
  for (let row = y0; row < y1; row++) {
    for (let col = x0; col < x1; col++) {
      const i = (row * image.width + col) * 3;
      image.data[i] = colour[0];
      image.data[i + 1] = colour[1];
      image.data[i + 2] = colour[2];
    }
  }
}

/** Width in pixels of `text` drawn at `scale` (one blank column between glyphs). */
export function measureText(text: string, scale: number): number {
  return text.length === 0 ? 0 : (text.length * (GLYPH_WIDTH + 1) - 1) * scale;
}

/** Draws one line of text with its top-left corner at (x, y); each font pixel becomes scale×scale. */
export function drawText(image: RgbImage, text: string, x: number, y: number, scale: number, colour: Rgb): void {
  [...text].forEach((char, index) => {
    const left = x + index * (GLYPH_WIDTH + 1) * scale;
    glyphColumns(char).forEach((bits, col) => {
      for (let row = 0; row < GLYPH_HEIGHT; row++) {
        if (bits & (1 << row)) fillRect(image, left + col * scale, y + row * scale, scale, scale, colour);
      }
    });
  });
}

export interface TextBlockOptions {
  /** Vertical centre of the block. */
  centerY: number;
  /** Widest a line may be, in pixels. */
  maxWidth: number;
  /** Largest and smallest integer scale to try. */
  maxScale: number;
  minScale?: number;
  maxLines?: number;
  colour: Rgb;
  /** Drawn one pixel per scale step down-right of the text, for legibility over busy backgrounds. */
  shadow?: Rgb;
}

/**
 * Word-wraps `text` and draws it horizontally centred at the largest scale that fits in
 * `maxLines` lines of `maxWidth` (ending in "..." if even `minScale` does not fit).
 * Returns the block's height in pixels and the scale used.
 */
export function drawTextBlock(
  image: RgbImage,
  text: string,
  options: TextBlockOptions,
): { height: number; scale: number } {
  const { centerY, maxWidth, maxScale, minScale = 1, maxLines = 2, colour, shadow } = options;
  let scale = maxScale;
  let lines = wrapWords(text, Math.floor((maxWidth / scale + 1) / (GLYPH_WIDTH + 1)));
  while (scale > minScale && lines.length > maxLines) {
    scale--;
    lines = wrapWords(text, Math.floor((maxWidth / scale + 1) / (GLYPH_WIDTH + 1)));
  }
  if (lines.length > maxLines) {
    const maxChars = Math.floor((maxWidth / scale + 1) / (GLYPH_WIDTH + 1));
    lines = [...lines.slice(0, maxLines - 1), `${lines[maxLines - 1]!.slice(0, Math.max(0, maxChars - 3))}...`];
  }

  const lineHeight = (GLYPH_HEIGHT + 3) * scale;
  const blockHeight = lines.length * lineHeight - 3 * scale;
  lines.forEach((line, i) => {
    const x = Math.round((image.width - measureText(line, scale)) / 2);
    const y = Math.round(centerY - blockHeight / 2 + i * lineHeight);
    if (shadow) drawText(image, line, x + scale, y + scale, scale, shadow);
    drawText(image, line, x, y, scale, colour);
  });
  return { height: blockHeight, scale };
}

/** Greedy word wrap to at most `maxChars` per line; over-long words are cut. */
function wrapWords(text: string, maxChars: number): string[] {
  const limit = Math.max(1, maxChars);
  const lines: string[] = [];
  let line = '';
  for (const word of text.trim().split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= limit) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (line.length > limit) {
      lines.push(line.slice(0, limit));
      line = line.slice(limit);
    }
  }
  if (line) lines.push(line);
  return lines;
}
