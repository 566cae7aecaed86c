// Types of scripts/build-server.mjs for the TypeScript that imports it (apps/server/bench).
export function buildServerBundle(o: {
  serverDir: string;
  outDir: string;
  entries: { in: string; out: string }[];
}): Promise<void>;
