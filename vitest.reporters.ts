// CI sets ATRIUM_REPORT_DIR so every vitest run also writes a JSON report for the final "N passed, N failed" line.
export function reporters(name: string): (string | [string, Record<string, unknown>])[] {
  const dir = process.env.ATRIUM_REPORT_DIR;
  if (!dir) return ['default'];
  const tag = process.env.ATRIUM_REPORT_TAG ?? 'run';
  return ['default', ['json', { outputFile: `${dir}/vitest-${name}-${tag}.json` }]];
}
