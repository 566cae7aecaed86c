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
const VOID = new Set(['br', 'img', 'hr']);
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'noscript',
  'template',
  'svg',
  'math',
]);

const escapeText = (s: string) =>
  s
    .replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z]+);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function attr(raw: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(raw);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : null;
}

export function sanitizeHtml(input: string): string {
  let out = '';
  let i = 0;
  const open: string[] = [];
  let dropping: string | null = null;
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|<!--[\s\S]*?-->/g;
  for (let m = tag.exec(input); m; m = tag.exec(input)) {
    if (!dropping) out += escapeText(input.slice(i, m.index));
    i = tag.lastIndex;
    if (!m[2]) continue; // a comment
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    if (dropping) {
      if (closing && name === dropping) dropping = null;
      continue;
    }
    if (DROP_WITH_CONTENT.has(name)) {
      if (!closing && !m[3].trim().endsWith('/')) dropping = name;
      continue;
    }
    if (!ALLOWED.has(name)) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at < 0) continue;
      while (open.length > at) out += `</${open.pop()}>`;
      continue;
    }
    let attrs = '';
    if (name === 'a') {
      const href = attr(m[3], 'href')?.trim() ?? '';
      if (/^(https?:|mailto:)/i.test(href)) attrs = ` href="${escapeAttr(href)}"`;
    } else if (name === 'img') {
      const src = attr(m[3], 'src')?.trim() ?? '';
      if (!/^https:/i.test(src)) continue;
      attrs = ` src="${escapeAttr(src)}"`;
    }
    out += `<${name}${attrs}>`;
    if (!VOID.has(name)) open.push(name);
  }
  if (!dropping) out += escapeText(input.slice(i));
  while (open.length) out += `</${open.pop()}>`;
  return out;
}
