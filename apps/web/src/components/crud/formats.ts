/** Display formats. What is sent is ISO 8601 with the browser's offset, so the server never guesses the zone. */
export const DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DAY_FORMAT = 'YYYY-MM-DD';
