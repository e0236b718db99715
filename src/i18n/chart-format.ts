/** The history chart's figures and tooltips in a language: used at build time and by the page's script alike. */
import type { ChartFormat } from '../pages/_lib/history-chart.ts';
import { formatCompactIn, formatInteger } from '../lib/format-number.ts';
import { formatDate } from '../pages/_lib/text.ts';
import { formatMessage } from './format-message.ts';

/** `barLabel` is the `history.barLabel` message of the page's language, unfilled. */
export function chartFormat(lang: string, barLabel: string): ChartFormat {
  const number = (value: number) => formatInteger(value, lang);
  const date = (isoDate: string) => formatDate(isoDate, lang);
  return {
    number,
    compact: (value) => formatCompactIn(value, lang),
    date,
    barLabel: (point) =>
      formatMessage(
        barLabel,
        {
          date: date(point.date),
          count: number(point.trending_videos),
          measured: number(point.videos_measured),
          views: number(point.total_views),
        },
        lang,
      ),
  };
}
