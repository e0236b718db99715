/**
 * Text as HTML text or a quoted attribute value, escaped as Astro escapes what a page interpolates (`&#39;` for
 * the apostrophe): what is written here reads back the same as what the build wrote.
 */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}
