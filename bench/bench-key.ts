/** The API key every benchmark's tagdex server and fake upstream share: any key selects live mode, none reaches Google. */
export const BENCH_API_KEY = 'tagdex-bench-key';
