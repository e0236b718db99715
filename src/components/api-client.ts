/**
 * Browser helpers shared by the home page's tools: call the public API and put text (never HTML) on the page.
 */

import { apiUrl } from './api-base.ts';

export type ApiAnswer<T> = { ok: true; data: T } | { ok: false; error: string };

/** Fetches an API path (at PUBLIC_API_BASE) and returns its envelope; a network failure becomes an error envelope too. */
export async function fetchApi<T>(path: string): Promise<ApiAnswer<T>> {
  try {
    const response = await fetch(apiUrl(path), { headers: { accept: 'application/json' } });
    const body = (await response.json()) as ApiAnswer<T>;
    if (typeof body === 'object' && body !== null && 'ok' in body) return body;
    return { ok: false, error: `Unexpected answer (HTTP ${response.status}).` };
  } catch {
    return { ok: false, error: 'tagdex could not be reached; check your connection and try again.' };
  }
}

/** Sets an element's text content; data from the API is never parsed as HTML. */
export function setText(selector: string, text: string): void {
  const element = document.querySelector(selector);
  if (element) element.textContent = text;
}

export function showError(element: HTMLElement, message: string): void {
  element.textContent = message;
  element.hidden = false;
}
