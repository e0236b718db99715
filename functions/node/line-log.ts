/**
 * The Node server's access-log writer: lines buffered in the process and written to a file descriptor by
 * sonic-boom (pino's destination) without blocking a request, once ACCESS_LOG_FLUSH.bytes wait and at least every
 * ACCESS_LOG_FLUSH.everyMs; `flushSync` writes out the rest on a clean exit.
 */
import SonicBoom from 'sonic-boom';
import { ACCESS_LOG_FLUSH } from '../../src/lib/limits.ts';

export interface LineLog {
  write(line: string): void;
  flushSync(): void;
}

export function createLineLog(fd: number): LineLog {
  const boom = new SonicBoom({
    fd,
    // Lines go in as bytes: in its text mode sonic-boom measures the whole pending chunk's UTF-8 length on every
    // write, so a line cost more the more were waiting (bench/access-log.ts: a title-score line with a Bengali
    // title 8.8 µs of CPU in text mode at 4 KB pending, 4.0 µs as bytes at 16 KB).
    contentMode: 'buffer',
    minLength: ACCESS_LOG_FLUSH.bytes,
    // sonic-boom refuses a minLength that is not below maxWrite (16 KB by default): a flush is one write.
    maxWrite: 2 * ACCESS_LOG_FLUSH.bytes,
    periodicFlush: ACCESS_LOG_FLUSH.everyMs,
    maxLength: 16 * 1024 * 1024,
  });
  // sonic-boom's types describe its text mode only; in its 'buffer' mode write() takes bytes.
  const writeBytes = boom.write.bind(boom) as unknown as (bytes: Buffer) => boolean;
  return {
    write: (line) => void writeBytes(Buffer.from(`${line}\n`)),
    flushSync: () => boom.flushSync(),
  };
}
