/**
 * Answers requests Node's HTTP parser refuses before any handler runs (an address over the header-size limit,
 * raw control or non-ASCII bytes in the query) with the API's JSON envelope and CORS header, not a bare 400/431.
 */
import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { refusal } from '../respond.ts';

/** The status and message for a parser error code; URL problems are bad parameters (422), as the spec says. */
function clientErrorAnswer(code: string | undefined): { status: number; reason: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 422,
        reason: 'Unprocessable Entity',
        message: `The request is too large: its address and headers may hold at most ${Math.floor(maxHeaderSize / 1024)} KB. A parameter is probably too long; shorten it.`,
      };
    case 'HPE_INVALID_URL':
      return {
        status: 422,
        reason: 'Unprocessable Entity',
        message:
          'The request address holds characters a URL may not contain (spaces, control characters or raw non-ASCII bytes): percent-encode each parameter value as UTF-8.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', message: 'The request did not arrive in time; send it again.' };
    default:
      return { status: 400, reason: 'Bad Request', message: 'The request is not valid HTTP/1.1.' };
  }
}

/**
 * The server's `clientError` listener. Writes one complete answer and closes the connection; a connection that
 * is already gone, or whose current response has started, is only destroyed (raw bytes would corrupt it).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    // A second parser error on a connection already answered (the rest of a long address arriving) ends here.
    return;
  }
  // Node keeps the response in progress on the socket; its headers having gone out means bytes are on the wire.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = clientErrorAnswer(error.code);
  const { headers, body } = refusal(status, message);
  headers.push('Content-Length', String(body.byteLength), 'Connection', 'close');
  let head = `HTTP/1.1 ${status} ${reason}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]));
  // A client that never closes its side must not hold the socket open; the answer has been flushed by then.
  setTimeout(() => socket.destroy(), 5_000).unref();
}
