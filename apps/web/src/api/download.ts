/**
 * What every file download of the console shares (the regions workbook, a report's csv / xlsx): a refusal read from
 * the blob it arrives as, the file name the server gave, and handing the blob to the browser.
 */

/** Refusals arrive as a blob (responseType) too: the envelope's message, if it is one; '' otherwise. */
export async function refusalOf(err: unknown): Promise<string> {
  const data = (err as { response?: { data?: unknown } }).response?.data;
  if (!(data instanceof Blob)) return '';
  try {
    return (JSON.parse(await data.text()) as { msg?: string }).msg ?? '';
  } catch {
    // Not an envelope: nothing to show beyond the failure itself.
    return '';
  }
}

/** The name of `Content-Disposition: attachment; filename*=UTF-8''…`, or `fallback`. */
export function fileNameOf(headers: Record<string, unknown>, fallback: string): string {
  const named = /filename\*=UTF-8''([^;]+)/.exec(String(headers['content-disposition'] ?? ''))?.[1];
  return named ? decodeURIComponent(named) : fallback;
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A download's or upload's size as a person reads it: KB below a megabyte, MB with one decimal above. */
export const sizeText = (bytes: number) =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
