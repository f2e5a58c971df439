import decodeQR from '@paulmillr/qr/decode.js';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fiveNetworksOffer, hotspotAnswer, mdnsOffer } from './chromium-descriptions.testing.ts';
import { QrCode } from './QrCode.tsx';
import { encodeSignal, groupForTyping } from './signal-code.ts';

/**
 * The QR code as the page draws it — the SVG's path, painted into pixels here as a screen would — read back by the
 * decoder the scanner falls back on where Chrome has no BarcodeDetector. Proves the drawing (quiet zone, module
 * positions, alphanumeric mode) and not only the library.
 */

const RUN = /^(\d+) (\d+)h(\d+)v1h-\d+z$/;

function svgOf(code: string): { size: number; path: string; markup: string } {
  const markup = renderToStaticMarkup(<QrCode text={code} />);
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(markup)?.[1]);
  const path = /<path d="([^"]*)"/.exec(markup)?.[1] ?? '';
  return { size, path, markup };
}

/** RGBA pixels of the drawing at `pixelsPerModule` (not always whole: a camera never lines up with the modules). */
function paint(size: number, path: string, pixelsPerModule: number) {
  const modules = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  for (const command of path.split('M').filter(Boolean)) {
    const run = RUN.exec(command);
    if (!run) throw new Error(`not a run: ${command}`);
    const [x, y, width] = run.slice(1).map(Number) as [number, number, number];
    for (let at = x; at < x + width; at += 1) modules[y]![at] = true;
  }
  const side = Math.round(size * pixelsPerModule);
  const data = new Uint8Array(side * side * 4).fill(255);
  for (let row = 0; row < side; row += 1) {
    for (let column = 0; column < side; column += 1) {
      if (!modules[Math.floor(row / pixelsPerModule)]![Math.floor(column / pixelsPerModule)]) continue;
      data.fill(0, (row * side + column) * 4, (row * side + column) * 4 + 3);
    }
  }
  return { width: side, height: side, data };
}

describe('a signal code drawn as a QR code', () => {
  it.each([
    ['an answer with real addresses', encodeSignal(hotspotAnswer)],
    ['an offer with mDNS names', encodeSignal(mdnsOffer)],
    ['an offer from a phone on five networks', encodeSignal(fiveNetworksOffer)],
  ])('reads back as the same code: %s', (_name, code) => {
    const { size, path } = svgOf(code);
    expect(decodeQR(paint(size, path, 4))).toBe(code);
    expect(decodeQR(paint(size, path, 2.6))).toBe(code);
  });

  it('has a quiet zone of four light modules on every side', () => {
    const { size, path } = svgOf(encodeSignal(hotspotAnswer));
    const runs = path
      .split('M')
      .filter(Boolean)
      .map((command) => RUN.exec(command)!.slice(1).map(Number));
    expect(Math.min(...runs.map(([x]) => x!))).toBe(4);
    expect(Math.min(...runs.map(([, y]) => y!))).toBe(4);
    expect(Math.max(...runs.map(([x, , width]) => x! + width!))).toBe(size - 4);
    expect(Math.max(...runs.map(([, y]) => y! + 1))).toBe(size - 4);
  });

  it('is a version 6 code (41 modules and the quiet zone) for a typical answer', () => {
    expect(svgOf(encodeSignal(hotspotAnswer)).size).toBe(41 + 8);
  });

  it('is named for people who cannot see it, and shows the code to type in groups', () => {
    const code = encodeSignal(hotspotAnswer);
    const { markup } = svgOf(code);
    expect(markup).toContain('role="img" aria-label="QR code for the other phone to scan"');
    expect(markup).toContain(`<code`);
    expect(markup).toContain(groupForTyping(code));
    expect(markup).toContain('fill="#ffffff"');
    expect(markup).toContain('fill="#000000"');
  });
});
