/** undici's own modules that functions/node/upstream-pool.ts loads instead of its whole index (typed there). */
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: unknown;
  export default Pool;
}
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
