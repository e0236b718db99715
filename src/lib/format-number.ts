/**
 * Numbers for people: `1.2M`, `12K`, `950` on the pages, with the exact figure (`1,234,567`) kept for a
 * title attribute. Pure and locale-independent, so the build output is the same on every machine.
 */

const UNITS = [
  { suffix: 'K', size: 1e3 },
  { suffix: 'M', size: 1e6 },
  { suffix: 'B', size: 1e9 },
  { suffix: 'T', size: 1e12 },
] as const;

/**
 * Short form: below 1,000 the exact integer; above, one decimal under 10 of a unit (`1.2K`, `9.9M`) and
 * whole units from 10 up (`12K`, `950K`), rounded half up. A value that rounds to 1,000 of a unit moves to
 * the next one (`999,999` → `1M`, not `1000K`). Non-integers are rounded first; non-finite values are
 * returned as `String(value)`.
 */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const whole = Math.round(value);
  if (whole < 0) return `-${formatCompact(-whole)}`;
  if (whole < 1000) return String(whole);
  for (let i = 0; i < UNITS.length; i++) {
    const unit = UNITS[i]!;
    const next = UNITS[i + 1];
    if (next && whole >= next.size) continue;
    const scaled = whole / unit.size;
    const shown = scaled < 10 ? Math.round(scaled * 10) / 10 : Math.round(scaled);
    if (shown >= 1000 && next) return `1${next.suffix}`;
    return `${shown}${unit.suffix}`;
  }
  return String(whole); // unreachable: the last unit always returns
}

/** Exact form with comma thousands separators (`1234567` → `1,234,567`), for title attributes. */
export function formatExact(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const whole = Math.round(value);
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ',');
  return whole < 0 ? `-${digits}` : digits;
}

const formats = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per language and style: a country page formats thousands of figures. */
function numberFormat(lang: string, compact: boolean): Intl.NumberFormat {
  const key = `${lang}|${compact}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, compact ? { notation: 'compact', maximumFractionDigits: 1 } : {});
    formats.set(key, format);
  }
  return format;
}

/** An integer as people of `lang` write it, by Intl (`hi` 12,34,567; `bn` ১২,৩৪,৫৬৭; `ar-EG` ١٬٢٣٤٬٥٦٧). */
export function formatInteger(value: number, lang: string): string {
  if (!Number.isFinite(value)) return String(value);
  return lang === 'en' ? formatExact(value) : numberFormat(lang, false).format(Math.round(value));
}

/** The short form in `lang`: English keeps formatCompact's `1.2M`; others take Intl's compact notation (`12 लाख`). */
export function formatCompactIn(value: number, lang: string): string {
  if (!Number.isFinite(value) || lang === 'en') return formatCompact(value);
  return numberFormat(lang, true).format(Math.round(value));
}
