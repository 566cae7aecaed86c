import sanitize from 'sanitize-html';
import { DROP_WITH_CONTENT } from '../../platform/html.ts';

/**
 * A notice's content reduced to a rich-text allowlist (docs/notices.md "Sanitiser"), on every save: paragraphs,
 * headings, emphasis, lists, quotes, code, tables, links (http, https, mailto; opened with rel=noopener) and images
 * (http, https, or this server's /files/). No style, class, script, frame, SVG, form or on* attribute survives; script,
 * style and their kind are dropped with their content. A kept sanitiser (sanitize-html), not a hand-written one.
 */

const TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
];

const LINK = /^(https?:|mailto:)/i;
const IMAGE = /^(https?:\/\/|\/files\/)/i;

const OPTIONS: sanitize.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: {
    a: ['href', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  nonTextTags: DROP_WITH_CONTENT,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Only absolute http(s) and mailto links are kept (a relative or scripted href goes); each opens apart.
    a: (tagName, attribs): sanitize.Tag => {
      const href = (attribs.href ?? '').trim();
      const kept: sanitize.Attributes = LINK.test(href) ? { href, rel: 'noopener noreferrer', target: '_blank' } : {};
      return { tagName, attribs: kept };
    },
  },
  // An image from anywhere but http(s) or this server's files is dropped whole, not left as an empty <img>.
  exclusiveFilter: (frame) => frame.tag === 'img' && !IMAGE.test((frame.attribs.src ?? '').trim()),
};

/** The content as stored and answered. */
export function sanitiseNotice(html: string): string {
  return sanitize(html, OPTIONS).trim();
}

/** Whether sanitised content shows anything (text or an image). */
export function showsSomething(html: string): boolean {
  return /<img\s/i.test(html) || sanitize(html, { allowedTags: [], allowedAttributes: {} }).trim() !== '';
}
