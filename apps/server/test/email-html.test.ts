// The HTML a staff member types into a client's e-mail (docs/clients.md "Email") is reduced to an allowlist before it
// is queued: what reaches the outbox cannot run in a mail reader.
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../src/modules/client/sanitize.ts';

describe('e-mail HTML', () => {
  it('keeps formatting, links with http(s) or mailto, and images with an https source', () => {
    expect(sanitizeHtml('<p>Hello <b>there</b>, <a href="https://example.com/a?b=1&amp;c=2">see</a></p>')).toBe(
      '<p>Hello <b>there</b>, <a href="https://example.com/a?b=1&amp;c=2">see</a></p>',
    );
    expect(sanitizeHtml('<a href="mailto:ops@example.com">mail</a>')).toBe('<a href="mailto:ops@example.com">mail</a>');
    expect(sanitizeHtml('<img src="https://example.com/x.png">')).toBe('<img src="https://example.com/x.png" />');
  });

  it('drops scripts with their content, event handlers, styles and unsafe links', () => {
    const out = sanitizeHtml(
      '<p onclick="steal()" style="x">a</p><script>alert(1)</script><style>p{}</style>' +
        '<a href="javascript:alert(1)">b</a><a href=" JaVaScRiPt:alert(1)">c</a>' +
        '<img src="http://example.com/x.png" onerror="alert(1)"><img src=x onerror=alert(1)>' +
        '<iframe src="https://evil.example"></iframe><svg><script>alert(1)</script></svg>',
    );
    expect(out).toBe('<p>a</p><a>b</a><a>c</a>');
    expect(out).not.toMatch(/alert|onerror|onclick|javascript|iframe|script|style|svg/i);
  });

  it('escapes text, closes what was left open and drops unknown tags but keeps their text', () => {
    expect(sanitizeHtml('1 < 2 & 3 > 2 <marquee>moving</marquee>')).toBe('1 &lt; 2 &amp; 3 &gt; 2 moving');
    expect(sanitizeHtml('<ul><li>one<li>two')).toBe('<ul><li>one</li><li>two</li></ul>');
    expect(sanitizeHtml('<!-- hidden --><b>bold')).toBe('<b>bold</b>');
  });
});
