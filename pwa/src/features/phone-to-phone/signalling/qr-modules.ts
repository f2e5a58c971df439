import encodeQR from '@paulmillr/qr';

/**
 * Error correction M (15 % of the code can be lost): a phone screen held up to a cheap camera is not torn or dirty
 * like paper, but glare and moiré wipe patches, which L's 7 % often does not cover. A typical offer is then a
 * version 6 code (41 modules a side) instead of L's version 5 (37): a small price for far fewer failed reads.
 */
const ERROR_CORRECTION = 'medium';

/** The spec's quiet zone: a camera finds a code by its finder patterns against 4 modules of light around it. */
export const QUIET_ZONE = 4;

/** The dark (true) and light modules of `code`'s QR code, without the quiet zone. */
export function qrModules(code: string): boolean[][] {
  // Alphanumeric mode: a signal code (A–Z, 2–7) costs 5.5 bits a character there, not byte mode's 8.
  return encodeQR(code, 'raw', { ecc: ERROR_CORRECTION, encoding: 'alphanumeric', border: 0 });
}

/**
 * An SVG path that draws every dark module, offset by the quiet zone: one rectangle per horizontal run, so a version 7
 * code is some 600 short commands rather than 1,000 rectangles.
 */
export function darkModulesPath(modules: boolean[][]): string {
  const commands: string[] = [];
  modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x += 1;
      commands.push(`M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`);
    }
  });
  return commands.join('');
}
