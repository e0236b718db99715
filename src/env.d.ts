/// <reference types="astro/client" />

interface ImportMetaEnv {
  /** Build variable: the API's origin when the pages are hosted apart from it (default: the same origin). */
  readonly PUBLIC_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
