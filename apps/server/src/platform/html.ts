/**
 * What every HTML allowlist of the server shares (the e-mail body of docs/clients.md "Email", a notice's content of
 * docs/notices.md "Sanitiser"; both through sanitize-html): the elements dropped together with everything inside
 * them. sanitize-html keeps the text of other dropped elements; the text of these is code, styling or form state.
 */
export const DROP_WITH_CONTENT = [
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'noscript',
  'template',
  'svg',
  'math',
  'textarea',
  'select',
  'title',
  'head',
];
