/** One JSON log line for a failure a client saw as 5xx: name, message, cause and a short stack, never a key. */

export function describeError(error: unknown, path?: string): string {
  const detail =
    error instanceof Error
      ? {
          name: error.name,
          message: error.message,
          cause: error.cause instanceof Error ? error.cause.message : undefined,
          stack: error.stack?.split('\n').slice(0, 6).join('\n'),
        }
      : { message: String(error) };
  return JSON.stringify({ time: new Date().toISOString(), level: 'error', path, ...detail });
}
