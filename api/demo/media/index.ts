/**
 * Demo media for Filamu: small but real, playable movie clips (H.264 in MP4) and PNG posters,
 * generated in-process so the demo needs no network, ffmpeg or stored binaries.
 * Output depends only on the options, so the same title always yields the same bytes.
 */
import { encodeMp4 } from './mp4.ts';
import { encodePng, type RgbImage } from './png.ts';
import {
  createImage,
  drawText,
  drawTextBlock,
  fillRect,
  fillVerticalGradient,
  measureText,
  mixRgb,
  type Rgb,
} from './raster.ts';

export { hexToRgb, type Rgb } from './raster.ts';

export interface DemoArtOptions {
  title: string;
  /** Second line, e.g. the VJ's name. */
  subtitle?: string;
  /** Gradient from the top colour to the bottom colour. */
  palette: readonly [top: Rgb, bottom: Rgb];
  width?: number;
  height?: number;
}

export interface DemoMovieOptions extends DemoArtOptions {
  seconds?: number;
  fps?: number;
}

export interface DemoVideo {
  bytes: Buffer;
  contentType: 'video/mp4';
  extension: 'mp4';
}

const WHITE: Rgb = [255, 255, 255];
const SHADOW: Rgb = [12, 12, 16];

/**
 * An animated clip: the poster layout plus a bouncing square, a filling progress bar and a
 * running `mm:ss` timecode, so it is obvious in a player that playback is advancing.
 * I_PCM video costs ~1.5 bytes/pixel/frame: 192×108 at 8 fps for 8 s is ~2.1 MB.
 */
export function generateDemoMovie(options: DemoMovieOptions): DemoVideo {
  const { width, height, fps } = movieSettings(options);
  const bytes = encodeMp4(renderDemoMovieFrames(options), { width, height, fps });
  return { bytes, contentType: 'video/mp4', extension: 'mp4' };
}

/** The clip's frames as RGB images, before encoding (exposed for tests and other encoders). */
export function renderDemoMovieFrames(options: DemoMovieOptions): Generator<RgbImage> {
  const settings = movieSettings(options);
  return movieFrames({ ...options, ...settings }, settings.frameCount, settings.fps);
}

function movieSettings(options: DemoMovieOptions) {
  const { width = 192, height = 108, fps = 8, seconds = 8 } = options;
  return { width, height, fps, frameCount: Math.max(1, Math.round(seconds * fps)) };
}

/** A poster: gradient, film-strip perforations, the title and the subtitle, as a PNG. */
export function generateDemoThumbnail(options: DemoArtOptions): Buffer {
  const { width = 480, height = 270 } = options;
  return encodePng(drawPoster({ ...options, width, height }));
}

type SizedArtOptions = DemoArtOptions & { width: number; height: number };

/** Sizes shared by the poster and the movie frames, all derived from the picture height. */
function layoutFor(height: number) {
  const hole = Math.max(2, Math.round(height / 36)); // film-strip perforation size
  const labelScale = Math.max(1, Math.floor(height / 110));
  return {
    hole,
    labelScale,
    // Small-text row (brand, timecode) just above the bottom perforations.
    labelY: height - 2 * hole - 3 * labelScale - 7 * labelScale,
    titleScale: Math.max(1, Math.floor(height / 50)),
  };
}

function* movieFrames(options: SizedArtOptions, frameCount: number, fps: number): Generator<RgbImage> {
  const background = drawPoster(options);
  const { width, height } = background;
  const { hole, labelScale, labelY } = layoutFor(height);
  const accent = mixRgb(options.palette[1], WHITE, 0.65);
  const square = Math.max(4, Math.round(height / 12));
  const barHeight = Math.max(1, hole - 1);

  for (let index = 0; index < frameCount; index++) {
    const frame: RgbImage = { width, height, data: background.data.slice() };
    // A square bouncing left <-> right every two seconds, below the top perforations.
    const phase = ((index / fps) % 2) / 2;
    const travel = width - square;
    const x = phase < 0.5 ? phase * 2 * travel : (1 - phase) * 2 * travel;
    fillRect(frame, x, 3 * hole, square, square, accent);
    // Progress bar along the very bottom edge, under the perforations.
    fillRect(frame, 0, height - barHeight, ((index + 1) / frameCount) * width, barHeight, accent);
    // Running timecode in the bottom-right corner.
    const timecode = formatTimecode(Math.floor(index / fps));
    const timecodeX = width - measureText(timecode, labelScale) - 3 * labelScale;
    drawText(frame, timecode, timecodeX + labelScale, labelY + labelScale, labelScale, SHADOW);
    drawText(frame, timecode, timecodeX, labelY, labelScale, WHITE);
    yield frame;
  }
}

function drawPoster(options: SizedArtOptions): RgbImage {
  const { width, height, palette, title, subtitle } = options;
  const { hole, labelScale, labelY, titleScale } = layoutFor(height);
  const image = createImage(width, height);
  const [top, bottom] = palette;
  fillVerticalGradient(image, top, bottom);

  // Film-strip perforations along the top and bottom edges, darker than the background.
  for (let x = hole; x + hole * 1.5 <= width - hole; x += hole * 3) {
    fillRect(image, x, hole, hole * 1.5, hole, mixRgb(top, SHADOW, 0.6));
    fillRect(image, x, height - 2 * hole, hole * 1.5, hole, mixRgb(bottom, SHADOW, 0.6));
  }

  const titleCenterY = height * 0.42;
  const titleBlock = drawTextBlock(image, title, {
    centerY: titleCenterY,
    maxWidth: width * 0.9,
    maxScale: titleScale,
    maxLines: 3,
    colour: WHITE,
    shadow: SHADOW,
  });
  if (subtitle) {
    // Half the title's size, and never larger than a long title that had to shrink.
    const subtitleScale = Math.max(1, Math.min(Math.floor(titleScale / 2), titleBlock.scale));
    const ruleY = Math.round(titleCenterY + titleBlock.height / 2 + titleBlock.scale + 4 * subtitleScale);
    fillRect(image, width * 0.3, ruleY, width * 0.4, subtitleScale, mixRgb(bottom, WHITE, 0.7));
    drawTextBlock(image, subtitle, {
      centerY: ruleY + subtitleScale * 10,
      maxWidth: width * 0.9,
      maxScale: subtitleScale,
      maxLines: 1,
      colour: mixRgb(bottom, WHITE, 0.85),
      shadow: SHADOW,
    });
  }

  drawText(image, 'FILAMU', 3 * labelScale + labelScale, labelY + labelScale, labelScale, SHADOW);
  drawText(image, 'FILAMU', 3 * labelScale, labelY, labelScale, WHITE);
  return image;
}

function formatTimecode(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}
