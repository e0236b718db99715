/**
 * The geometry of a tag's history chart, shared by the pre-rendered view (drawn by HistoryChart.astro at build
 * time) and the view that fetches the API (drawn by its script): bars of trending videos per day, a line of views.
 * Pure, so both draw the same chart from the same points.
 */
import type { TagHistoryPoint } from '../../schemas/tag-history.ts';
import { formatCompact, formatExact } from '../../lib/format-number.ts';
import { addDays } from '../../lib/iso-date.ts';
import { formatDate } from './text.ts';

const CHART_WIDTH = 720;
const CHART_HEIGHT = 200;
const LEFT = 36;
const RIGHT = 52;
const TOP = 10;
const BOTTOM = 24;
/** Height of the mark a snapshot without the tag gets, so that a zero is seen and told apart from a gap. */
const ZERO_MARK = 1.5;

interface HistoryBar {
  x: number;
  y: number;
  width: number;
  height: number;
  /** A snapshot in which no video carried the tag: drawn as a thin mark on the baseline. */
  zero: boolean;
  /** The bar's tooltip: date, trending videos, views, videos measured. */
  label: string;
}

export interface HistoryChartModel {
  width: number;
  height: number;
  bars: HistoryBar[];
  /** SVG path `d` of the views line, broken where a day has no snapshot; empty without views. */
  viewsPath: string;
  /** Axis labels: [x, y, text, anchor]. */
  labels: Array<[number, number, string, 'start' | 'middle' | 'end']>;
  baseline: number;
  plotLeft: number;
  plotRight: number;
}

const DAY_MS = 86_400_000;

/** How the chart writes its figures and its bars' tooltips: English by default, the page's language when given. */
export interface ChartFormat {
  number: (value: number) => string;
  compact: (value: number) => string;
  date: (isoDate: string) => string;
  barLabel: (point: TagHistoryPoint) => string;
}

const ENGLISH: ChartFormat = {
  number: formatExact,
  compact: formatCompact,
  date: (isoDate) => formatDate(isoDate),
  barLabel: (point) =>
    `${formatDate(point.date)}: ${formatExact(point.trending_videos)} of ${formatExact(point.videos_measured)} trending videos, ` +
    `${formatExact(point.total_views)} views`,
};

/**
 * Lays out the points of a window of `days` days ending at the last point's date. The axis is labelled with the
 * window's own first and last days (not the first snapshot's). A day without a snapshot stays a gap: no bar, and
 * the views line breaks there; a snapshot without the tag is a zero, drawn as a thin mark on the baseline.
 */
export function historyChart(
  points: readonly TagHistoryPoint[],
  days: number,
  format: ChartFormat = ENGLISH,
): HistoryChartModel {
  const plotLeft = LEFT;
  const plotRight = CHART_WIDTH - RIGHT;
  const baseline = CHART_HEIGHT - BOTTOM;
  const model: HistoryChartModel = {
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    bars: [],
    viewsPath: '',
    labels: [],
    baseline,
    plotLeft,
    plotRight,
  };
  const last = points.at(-1);
  if (last === undefined) return model;
  const end = Date.parse(`${last.date}T00:00:00Z`);
  const step = (plotRight - plotLeft) / days;
  const inWindow = points
    .map((point) => ({ point, slot: days - 1 - Math.round((end - Date.parse(`${point.date}T00:00:00Z`)) / DAY_MS) }))
    .filter(({ slot }) => slot >= 0);
  const maxVideos = Math.max(1, ...inWindow.map(({ point }) => point.trending_videos));
  const maxViews = Math.max(0, ...inWindow.map(({ point }) => point.total_views));
  const plotHeight = baseline - TOP;
  const path: string[] = [];
  let previousSlot = Number.NaN;
  for (const { point, slot } of inWindow) {
    const x = plotLeft + slot * step;
    const zero = point.trending_videos === 0;
    const height = zero ? ZERO_MARK : (point.trending_videos / maxVideos) * plotHeight;
    model.bars.push({
      x: round(x + step * 0.15),
      y: round(baseline - height),
      width: round(Math.max(1, step * 0.7)),
      height: round(height),
      zero,
      label: format.barLabel(point),
    });
    // A new segment after a day without a snapshot: the line never bridges a gap.
    const command = slot === previousSlot + 1 ? 'L' : 'M';
    path.push(
      `${command}${round(x + step / 2)},${round(baseline - (point.total_views / Math.max(1, maxViews)) * plotHeight)}`,
    );
    previousSlot = slot;
  }
  if (maxViews > 0) model.viewsPath = path.join(' ');
  model.labels.push([plotLeft - 6, TOP + 10, format.number(maxVideos), 'end']);
  model.labels.push([plotLeft - 6, baseline, format.number(0), 'end']);
  if (maxViews > 0) model.labels.push([plotRight + 6, TOP + 10, format.compact(maxViews), 'start']);
  model.labels.push([plotLeft, CHART_HEIGHT - 6, format.date(addDays(last.date, -(days - 1))), 'start']);
  if (days > 1) model.labels.push([plotRight, CHART_HEIGHT - 6, format.date(last.date), 'end']);
  return model;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
