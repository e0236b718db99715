/**
 * Where the build puts the Worker's prepared files inside dist/ (served to the Worker only, never to clients):
 * `_prepared/` + the same relative paths as in build/ (BUILD_FILES).
 */
export { PREPARED_PREFIX } from '../../src/lib/limits.ts';
