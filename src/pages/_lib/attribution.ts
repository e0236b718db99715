/** The links YouTube's API terms ask a site showing API data to carry: in every footer, the API page and /privacy/. */

/** The YouTube Terms of Service. */
export const YOUTUBE_TERMS_URL = 'https://www.youtube.com/t/terms';
/** Google's Privacy Policy. */
export const GOOGLE_PRIVACY_URL = 'https://policies.google.com/privacy';
