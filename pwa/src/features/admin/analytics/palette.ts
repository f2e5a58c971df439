/**
 * Chart colours per theme (Tailwind's palette as hex, since they become SVG attributes). Each series colour has
 * at least 3:1 contrast against its card (white / stone-900) as WCAG 1.4.11 asks of graphics; grid lines are
 * deliberately faint, axis text is the body's secondary text colour (AA for small text).
 */
export interface Palette {
  downloads: string;
  revenue: string;
  revenueFill: string;
  subscribers: string;
  grid: string;
  axis: string;
  cursor: string;
}

const light: Palette = {
  downloads: '#c2410c', // brand-700, 5.2:1 on white
  revenue: '#047857', // emerald-700, 5.5:1
  revenueFill: '#04785722',
  subscribers: '#0369a1', // sky-700, 5.9:1
  grid: '#e7e5e4', // stone-200
  axis: '#57534e', // stone-600
  cursor: '#f5f5f4', // stone-100
};

const dark: Palette = {
  downloads: '#fb923c', // brand-400, 7.6:1 on stone-900
  revenue: '#34d399', // emerald-400, 9.5:1
  revenueFill: '#34d39926',
  subscribers: '#38bdf8', // sky-400, 8.5:1
  grid: '#292524', // stone-800
  axis: '#a8a29e', // stone-400
  cursor: '#292524',
};

export const chartPalette = (isDark: boolean): Palette => (isDark ? dark : light);
