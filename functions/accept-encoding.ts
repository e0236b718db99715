/** The one reader of `Accept-Encoding`, for the API's answers and the site's files alike. */

/**
 * Does an `Accept-Encoding` header accept `coding` (`gzip`, `br`)? Named with a weight above 0 or none
 * (`gzip`, `gzip;q=0.5`); `gzip;q=0` refuses it, as RFC 9110 §12.5.3 says. `*` is not read as a coding.
 */
export function acceptsEncoding(header: string | undefined, coding: string): boolean {
  if (!header) return false;
  for (const entry of header.split(',')) {
    const [name = '', ...parameters] = entry.split(';');
    if (name.trim().toLowerCase() !== coding) continue;
    const weight = parameters.map((parameter) => parameter.trim()).find((parameter) => /^q=/i.test(parameter));
    return weight === undefined || Number(weight.slice(2)) > 0;
  }
  return false;
}
