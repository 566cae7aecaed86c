// The embedded database's thread (docs/server.md "Embedded database"): PGlite runs here, off the HTTP event loop;
// src/db/pglite-thread.ts is the other end. Plain JavaScript so that node loads it as it is, under tsx, vitest and the
// production build alike (scripts/build-server.mjs copies it beside the bundle).
//
// Messages in: { id, op, ... } — 'query' { text, params, rowMode, raw, tx?, begin?, before? }, 'exec' { text, tx?, begin?, before? },
// 'end' { tx, commit }, 'listen' / 'unlisten' { channel }, 'dump' { compression }, 'close'. Each is answered { id, ok: true, result } or
// { id, ok: false, error }. A statement with `tx` runs in that transaction, which its first statement (`begin: true`)
// opens, after running the statements of `before` ({ text, params }[], their rows dropped, their error the answer);
// 'end' commits or rolls it back. Transactions are PGlite's own: a statement outside one waits until it ends.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** An error as plain data: its message, name and the database's fields (code, detail, constraint, …). */
function plainError(err) {
  if (!err || typeof err !== 'object') return { message: String(err), name: 'Error' };
  const out = { message: String(err.message), name: String(err.name ?? 'Error') };
  for (const [k, v] of Object.entries(err)) {
    if (v === undefined || typeof v === 'function' || k === 'params' || k === 'query') continue;
    if (v && typeof v === 'object') {
      if (k === 'cause') out.cause = plainError(v);
      continue;
    }
    out[k] = v;
  }
  return out;
}

const opened = (async () => {
  const { dataDir, loadDataDir } = workerData;
  const db = dataDir
    ? new PGlite(dataDir)
    : new PGlite({ loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined });
  await db.waitReady;
  return db;
})();

/** The parsers that leave a column as its text: the main thread applies the caller's own parser to it. */
const asText = (x) => x;
const rawParsers = (oids) => (oids?.length ? Object.fromEntries(oids.map((oid) => [oid, asText])) : undefined);

/** Channels listened to: channel → PGlite's unlisten. A notification goes to the main thread as { notify, payload },
 * posted while the statement that commits it is answered, so it arrives before that answer. */
const listening = new Map();

/** Open transactions: id → { tx: Promise<Transaction>, end(commit) → Promise<void> }. */
const transactions = new Map();

function open(db, id) {
  let gotTx;
  let finish;
  const tx = new Promise((resolve) => (gotTx = resolve));
  const decided = new Promise((resolve) => (finish = resolve));
  const ROLLBACK = Symbol('rollback');
  const done = db
    .transaction(async (t) => {
      gotTx(t);
      if (!(await decided)) throw ROLLBACK;
    })
    .catch((err) => {
      if (err !== ROLLBACK) throw err;
    });
  // A BEGIN that failed: the statements waiting for the transaction fail with its error.
  done.catch((err) => gotTx(Promise.reject(err)));
  const entry = {
    tx,
    end(commit) {
      finish(commit);
      return done.finally(() => transactions.delete(id));
    },
  };
  transactions.set(id, entry);
  return entry;
}

/** Where a statement runs: its transaction (opened by its first statement), or the database itself. */
async function target(db, msg) {
  if (msg.tx === undefined) return db;
  const entry = transactions.get(msg.tx) ?? (msg.begin ? open(db, msg.tx) : undefined);
  if (!entry) throw new Error(`transaction ${msg.tx} is not open`);
  const tx = await entry.tx;
  for (const st of msg.before ?? []) await tx.query(st.text, st.params);
  return tx;
}

async function handle(msg) {
  const db = await opened;
  switch (msg.op) {
    case 'query': {
      const on = await target(db, msg);
      const r = await on.query(msg.text, msg.params, { rowMode: msg.rowMode, parsers: rawParsers(msg.raw) });
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
    }
    case 'exec': {
      const on = await target(db, msg);
      const rs = await on.exec(msg.text);
      return rs.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    }
    case 'end': {
      const entry = transactions.get(msg.tx);
      if (entry) await entry.end(msg.commit);
      return null;
    }
    case 'dump': {
      const blob = await db.dumpDataDir(msg.compression);
      return new Uint8Array(await blob.arrayBuffer());
    }
    case 'listen':
      if (!listening.has(msg.channel))
        listening.set(
          msg.channel,
          await db.listen(msg.channel, (payload) => parentPort.postMessage({ notify: msg.channel, payload })),
        );
      return null;
    case 'unlisten': {
      const unlisten = listening.get(msg.channel);
      listening.delete(msg.channel);
      if (unlisten) await unlisten();
      return null;
    }
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`unknown operation ${msg.op}`);
  }
}

opened.then(
  () => parentPort.postMessage({ ready: true }),
  (err) => parentPort.postMessage({ ready: false, error: plainError(err) }),
);

parentPort.on('message', (msg) => {
  // Each message is handled as it comes; PGlite's own locks keep statements one at a time and transactions whole.
  // Statements of one transaction arrive in order (the main thread sends the next once it has the answer, or back to
  // back when `fn` runs them together) and PGlite runs them in that order.
  handle(msg).then(
    (result) => parentPort.postMessage({ id: msg.id, ok: true, result }),
    (err) => parentPort.postMessage({ id: msg.id, ok: false, error: plainError(err) }),
  );
});
