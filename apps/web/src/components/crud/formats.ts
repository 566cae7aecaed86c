/**
 * Display formats. An instant (`datetime`) is sent as ISO 8601 with the browser's offset, so the server never guesses
 * the zone; a calendar day (`date`) as `YYYY-MM-DD`, the same day in every zone (docs/resources.md "Kinds and columns").
 */
export const DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DAY_FORMAT = 'YYYY-MM-DD';
/** How a calendar day travels (in and out). */
export const DAY_WIRE = 'YYYY-MM-DD';
