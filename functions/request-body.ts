/**
 * Reads a request body up to a limit, for both adapters: a declared Content-Length over the limit is refused
 * before anything is read, and reading stops as soon as more than the limit has arrived. What is left unread is
 * the adapter's platform's to discard (Node's server drains it, workerd drops it); the stream is not destroyed,
 * so the answer saying why can still be written.
 */

/** The body's bytes, or null when it is longer than `maxBytes`. */
export async function readBoundedBody(
  chunks: AsyncIterator<Uint8Array> | null,
  contentLength: string | null | undefined,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (contentLength && Number(contentLength) > maxBytes) return null;
  const parts: Uint8Array[] = [];
  let received = 0;
  for (let next = await chunks?.next(); next && !next.done; next = await chunks!.next()) {
    received += next.value.byteLength;
    if (received > maxBytes) return null;
    parts.push(next.value);
  }
  const body = new Uint8Array(received);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return body;
}

/** A web stream's chunks (workerd's request bodies), read through its reader. */
export function webStreamChunks(stream: ReadableStream<Uint8Array> | null): AsyncIterator<Uint8Array> | null {
  if (!stream) return null;
  const reader = stream.getReader();
  return { next: () => reader.read() as Promise<IteratorResult<Uint8Array>> };
}
