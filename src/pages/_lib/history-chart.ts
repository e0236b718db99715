/**
 * The geometry of a tag's history chart, shared by the pre-rendered view (drawn by HistoryChart.astro at build
 * time) and the view that fetches the API (drawn by its script): bars of trending videos per day, a line of views.
 * Pure, so both draw the same chart from the same points.
 */
import type { TagHistoryPoint } from '../../schemas/tag-history.ts';
import { formatCompact, formatExact } from '../../lib/format-number.ts';
import { formatDate } from './text.ts';

export const CHART_WIDTH = 720;
export const CHART_HEIGHT = 200;
const LEFT = 36;
const RIGHT = 52;
const TOP = 10;
const BOTTOM = 24;

export interface HistoryBar {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The bar's tooltip: date, trending videos, views, videos measured. */
  label: string;
}

export interface HistoryChartModel {
  width: number;
  height: number;
  bars: HistoryBar[];
  /** SVG `points` of the views line; empty without views. */
  viewsLine: string;
  /** Axis labels: [x, y, text, anchor]. */
  labels: Array<[number, number, string, 'start' | 'middle' | 'end']>;
  baseline: number;
  plotLeft: number;
  plotRight: number;
}

const DAY_MS = 86_400_000;

/** Lays out the points of a window of `days` days ending at the last point's date (gaps stay gaps). */
export function historyChart(points: readonly TagHistoryPoint[], days: number): HistoryChartModel {
  const plotLeft = LEFT;
  const plotRight = CHART_WIDTH - RIGHT;
  const baseline = CHART_HEIGHT - BOTTOM;
  const model: HistoryChartModel = { width: CHART_WIDTH, height: CHART_HEIGHT, bars: [], viewsLine: '', labels: [], baseline, plotLeft, plotRight };
  const last = points.at(-1);
  if (last === undefined) return model;
  const end = Date.parse(`${last.date}T00:00:00Z`);
  const step = (plotRight - plotLeft) / days;
  const maxVideos = Math.max(1, ...points.map((p) => p.trending_videos));
  const maxViews = Math.max(0, ...points.map((p) => p.total_views));
  const plotHeight = baseline - TOP;
  const line: string[] = [];
  for (const point of points) {
    const slot = days - 1 - Math.round((end - Date.parse(`${point.date}T00:00:00Z`)) / DAY_MS);
    const x = plotLeft + slot * step;
    const height = (point.trending_videos / maxVideos) * plotHeight;
    model.bars.push({
      x: round(x + step * 0.15),
      y: round(baseline - height),
      width: round(Math.max(1, step * 0.7)),
      height: round(height),
      label:
        `${formatDate(point.date)}: ${formatExact(point.trending_videos)} of ${formatExact(point.videos_measured)} trending videos, ` +
        `${formatExact(point.total_views)} views`,
    });
    if (maxViews > 0) line.push(`${round(x + step / 2)},${round(baseline - (point.total_views / maxViews) * plotHeight)}`);
  }
  model.viewsLine = line.join(' ');
  model.labels.push([plotLeft - 6, TOP + 10, formatExact(maxVideos), 'end']);
  model.labels.push([plotLeft - 6, baseline, '0', 'end']);
  if (maxViews > 0) model.labels.push([plotRight + 6, TOP + 10, formatCompact(maxViews), 'start']);
  const first = points[0] as TagHistoryPoint;
  model.labels.push([plotLeft, CHART_HEIGHT - 6, formatDate(first.date), 'start']);
  if (first !== last) model.labels.push([plotRight, CHART_HEIGHT - 6, formatDate(last.date), 'end']);
  return model;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
