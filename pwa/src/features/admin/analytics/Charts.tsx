import type { DailyFigures } from '@filamu/shared';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import { compactUgx, formatCount, shortDay } from './format.ts';
import { chartPalette, type Palette } from './palette.ts';
import { useDarkMode } from './useDarkMode.ts';
import type { WeeklyFigure } from './weeks.ts';

/*
 * The drawings only: each sits in a ChartFigure that carries the title, the total and the data table, and is
 * hidden from screen readers, so Recharts' keyboard layer is off (nothing inside may take focus).
 * Animation is off too: the figures are what matters, and it keeps screenshots and reduced-motion users calm.
 */

const MARGIN = { top: 8, right: 12, bottom: 0, left: 0 };

function axes(p: Palette, yFormat: (n: number) => string) {
  const tick = { fill: p.axis, fontSize: 12 };
  return [
    <CartesianGrid key="grid" vertical={false} stroke={p.grid} />,
    <XAxis
      key="x"
      dataKey="label"
      tick={tick}
      tickLine={false}
      axisLine={{ stroke: p.grid }}
      interval="preserveStartEnd"
      minTickGap={16}
    />,
    <YAxis
      key="y"
      allowDecimals={false}
      tick={tick}
      tickLine={false}
      axisLine={false}
      width={48}
      tickFormatter={yFormat}
    />,
  ];
}

/** A tooltip card in the app's colours: the day (or week) and the full figure. */
function tooltip(format: (n: number) => string) {
  return function ChartTooltip({ active, payload, label }: TooltipContentProps) {
    const value = payload?.[0]?.value;
    if (!active || value === undefined) return null;
    return (
      <div className="rounded-lg border border-stone-200 bg-white px-3 py-2 text-sm shadow-md dark:border-stone-700 dark:bg-stone-950">
        <p className="text-stone-600 dark:text-stone-400">{label}</p>
        <p className="font-semibold tabular-nums text-stone-900 dark:text-stone-50">{format(Number(value))}</p>
      </div>
    );
  };
}

const downloadsTooltip = tooltip((n) => `${formatCount(n)} ${n === 1 ? 'download' : 'downloads'}`);
const revenueTooltip = tooltip((n) => `UGX ${formatCount(n)}`);
const subscribersTooltip = tooltip((n) => `${formatCount(n)} new ${n === 1 ? 'subscriber' : 'subscribers'}`);

const withLabels = (daily: DailyFigures[]) => daily.map((d) => ({ ...d, label: shortDay(d.date) }));

export function DownloadsChart({ daily }: { daily: DailyFigures[] }) {
  const p = chartPalette(useDarkMode());
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={withLabels(daily)} margin={MARGIN} accessibilityLayer={false}>
        {axes(p, formatCount)}
        <Tooltip content={downloadsTooltip} cursor={{ fill: p.cursor }} />
        <Bar dataKey="downloads" fill={p.downloads} radius={[4, 4, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function RevenueChart({ daily }: { daily: DailyFigures[] }) {
  const p = chartPalette(useDarkMode());
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={withLabels(daily)} margin={MARGIN} accessibilityLayer={false}>
        {axes(p, compactUgx)}
        <Tooltip content={revenueTooltip} cursor={{ stroke: p.axis, strokeDasharray: '3 3' }} />
        <Area
          type="monotone"
          dataKey="revenueUgx"
          stroke={p.revenue}
          strokeWidth={2}
          fill={p.revenueFill}
          dot={daily.length <= 31 ? { r: 2.5, fill: p.revenue, strokeWidth: 0 } : false}
          activeDot={{ r: 4 }}
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}

export function SubscribersChart({ weeks }: { weeks: WeeklyFigure[] }) {
  const p = chartPalette(useDarkMode());
  const data = weeks.map((w) => ({ ...w, label: `Wk of ${shortDay(w.weekStart)}` }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={MARGIN} accessibilityLayer={false}>
        {axes(p, formatCount)}
        <Tooltip content={subscribersTooltip} cursor={{ fill: p.cursor }} />
        <Bar dataKey="newSubscribers" fill={p.subscribers} radius={[4, 4, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
