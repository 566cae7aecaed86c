/** What the server accepts for upload, recognised by content (magic bytes), not by the name the client gave. */
export type FileKind = { ext: string; mime: string; inline: boolean };

const startsWith = (buf: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buf[offset + i] === b);

export function sniff(buf: Buffer, originalName: string): FileKind | null {
  const ext = (originalName.split('.').pop() ?? '').toLowerCase();
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return { ext: 'jpg', mime: 'image/jpeg', inline: true };
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { ext: 'png', mime: 'image/png', inline: true };
  if (startsWith(buf, [0x47, 0x49, 0x46, 0x38])) return { ext: 'gif', mime: 'image/gif', inline: true };
  if (startsWith(buf, [0x52, 0x49, 0x46, 0x46]) && startsWith(buf, [0x57, 0x45, 0x42, 0x50], 8))
    return { ext: 'webp', mime: 'image/webp', inline: true };
  if (startsWith(buf, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { ext: 'pdf', mime: 'application/pdf', inline: false };
  if (startsWith(buf, [0x50, 0x4b, 0x03, 0x04])) {
    const office: Record<string, string> = {
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      zip: 'application/zip',
    };
    return office[ext] ? { ext, mime: office[ext], inline: false } : null;
  }
  const text: Record<string, string> = {
    txt: 'text/plain',
    csv: 'text/csv',
    bpmn: 'application/xml',
    xml: 'application/xml',
  };
  if (text[ext] && !buf.subarray(0, 8192).includes(0)) return { ext, mime: text[ext], inline: false };
  return null;
}

export const mimeOf: Record<string, FileKind> = Object.fromEntries(
  [
    'jpg:image/jpeg:1',
    'png:image/png:1',
    'gif:image/gif:1',
    'webp:image/webp:1',
    'pdf:application/pdf:0',
    'xlsx:application/octet-stream:0',
    'docx:application/octet-stream:0',
    'zip:application/zip:0',
    'txt:text/plain:0',
    'csv:text/csv:0',
    'bpmn:application/xml:0',
    'xml:application/xml:0',
  ]
    .map((s) => s.split(':'))
    .map(([ext, mime, inline]) => [ext, { ext, mime, inline: inline === '1' }]),
);

/** The extensions a name may carry for a recognised type (a JPEG may be called .jpeg). */
export function extensionsOf(kind: FileKind): string[] {
  return kind.ext === 'jpg' ? ['jpg', 'jpeg', 'jpe', 'jfif'] : [kind.ext];
}
