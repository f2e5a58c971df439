/**
 * The classic 5x7 LCD bitmap font (public domain, as used by HD44780-style displays).
 * Each glyph is five columns, left to right; bit 0 of a column is the top row.
 * Lower-case letters are drawn with the upper-case glyphs; unknown characters become '?'.
 */
const GLYPHS: Record<string, string> = {
  ' ': '0000000000',
  '!': '00005f0000',
  '"': '0007000700',
  '#': '147f147f14',
  '%': '2313086462',
  '&': '3649552250',
  "'": '0005030000',
  '(': '001c224100',
  ')': '0041221c00',
  '*': '082a1c2a08',
  '+': '08083e0808',
  ',': '0050300000',
  '-': '0808080808',
  '.': '0060600000',
  '/': '2010080402',
  '0': '3e5149453e',
  '1': '00427f4000',
  '2': '4261514946',
  '3': '2141454b31',
  '4': '1814127f10',
  '5': '2745454539',
  '6': '3c4a494930',
  '7': '0171090503',
  '8': '3649494936',
  '9': '064949291e',
  ':': '0036360000',
  ';': '0056360000',
  '=': '1414141414',
  '?': '0201510906',
  '@': '324979413e',
  A: '7e1111117e',
  B: '7f49494936',
  C: '3e41414122',
  D: '7f4141221c',
  E: '7f49494941',
  F: '7f09090101',
  G: '3e41415132',
  H: '7f0808087f',
  I: '00417f4100',
  J: '2040413f01',
  K: '7f08142241',
  L: '7f40404040',
  M: '7f0204027f',
  N: '7f0408107f',
  O: '3e4141413e',
  P: '7f09090906',
  Q: '3e4151215e',
  R: '7f09192946',
  S: '4649494931',
  T: '01017f0101',
  U: '3f4040403f',
  V: '1f2040201f',
  W: '7f2018207f',
  X: '6314081463',
  Y: '0304780403',
  Z: '6151494543',
};

export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;

/** Column bitmasks (bit 0 = top row) for the glyph that draws `char`. */
export function glyphColumns(char: string): number[] {
  const hex = GLYPHS[char.toUpperCase()] ?? GLYPHS['?']!;
  return Array.from({ length: GLYPH_WIDTH }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}
