import sanitize from 'sanitize-html';
import { DROP_WITH_CONTENT } from '../../platform/html.ts';

/**
 * The HTML a staff member types into an email (docs/clients.md "Email"), reduced to an allowlist: formatting tags
 * without attributes, links with an http(s) or mailto href, images with an https src. Everything else is dropped
 * (script and style with their content) and text is escaped, so what reaches the outbox cannot run anywhere.
 */
const ALLOWED = new Set([
  'p',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'span',
  'div',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'a',
  'img',
  'hr',
]);
const OPTIONS: sanitize.IOptions = {
  allowedTags: [...ALLOWED],
  allowedAttributes: { a: ['href'], img: ['src'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  nonTextTags: DROP_WITH_CONTENT,
  disallowedTagsMode: 'discard',
  // An image without an https source is dropped whole, not left as an empty <img>.
  exclusiveFilter: (frame) => frame.tag === 'img' && !/^https:/i.test(frame.attribs.src ?? ''),
};

/** The allowlist applied by sanitize-html (a kept parser, not a hand-written one). */
export function sanitizeHtml(input: string): string {
  return sanitize(input, OPTIONS);
}
