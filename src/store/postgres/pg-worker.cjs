/**
 * The worker thread behind store/postgres/sync-connection.ts: it owns the `pg`
 * pool and answers one request at a time. The calling thread blocks on the
 * shared `state` word; after posting each reply this thread stores the
 * request's sequence number there and wakes it (Atomics.notify).
 *
 * Plain CommonJS (not TypeScript) so the same file runs from src/ under the
 * tests and from dist/ once built; the `pg` module path comes in workerData.
 */
"use strict";
const { workerData } = require("node:worker_threads");

const pg = require(workerData.pgPath);
// int8 (count(*), ids) as numbers: every id and count here stays below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

const { port, state, config } = workerData;
const pool = new pg.Pool(config);
// An idle client whose server went away emits 'error'; without a listener it would kill the thread.
pool.on("error", () => {});

/** The client of the open transaction, if any. */
let txClient;
/** The clients holding a session-level writer lock, by lock id. */
const lockClients = new Map();

function reply(seq, body) {
  port.postMessage({ seq, ...body });
  Atomics.store(state, 0, seq);
  Atomics.notify(state, 0);
}

function errorOf(err) {
  return {
    message: String((err && err.message) || err),
    code: err && typeof err.code === "string" ? err.code : undefined,
  };
}

async function dropClient(client) {
  try {
    client.release(true);
  } catch {
    // Already gone.
  }
}

async function handle(req) {
  switch (req.op) {
    case "query": {
      const runner = txClient ?? pool;
      const res = await runner.query({ text: req.sql, values: req.params, rowMode: req.rowMode });
      return { rows: res.rows, rowCount: res.rowCount };
    }
    case "batch": {
      // Several statements in one request (one hop instead of one each), in order, stopping at the first error.
      const runner = txClient ?? pool;
      const results = [];
      for (const st of req.statements) {
        const res = await runner.query({ text: st.sql, values: st.params });
        results.push({ rows: res.rows, rowCount: res.rowCount });
      }
      return { rows: results };
    }
    case "begin": {
      if (txClient) throw Object.assign(new Error("a transaction is already open"), { code: "GRK_NESTED" });
      const client = await pool.connect();
      try {
        await client.query(req.sql ?? "BEGIN");
      } catch (err) {
        await dropClient(client);
        throw err;
      }
      txClient = client;
      return {};
    }
    case "end": {
      const client = txClient;
      txClient = undefined;
      if (!client) return {};
      try {
        await client.query(req.sql);
        client.release();
      } catch (err) {
        await dropClient(client);
        throw err;
      }
      return {};
    }
    case "lock": {
      // One attempt on a connection of its own (so two writers of one process take turns too); the caller polls.
      const client = await pool.connect();
      let ok = false;
      try {
        ok = (await client.query("SELECT pg_try_advisory_lock($1, $2) AS ok", req.params)).rows[0].ok;
      } finally {
        if (ok) lockClients.set(req.lockId, client);
        else client.release();
      }
      return { rows: [{ ok }] };
    }
    case "unlock": {
      const client = lockClients.get(req.lockId);
      lockClients.delete(req.lockId);
      if (!client) return {};
      try {
        await client.query("SELECT pg_advisory_unlock($1, $2)", req.params);
        client.release();
      } catch {
        // The lock goes with the session: dropping the connection releases it.
        await dropClient(client);
      }
      return {};
    }
    case "close": {
      if (txClient) await dropClient(txClient);
      for (const client of lockClients.values()) await dropClient(client);
      lockClients.clear();
      txClient = undefined;
      await pool.end();
      return {};
    }
    default:
      throw new Error(`unknown request ${req.op}`);
  }
}

port.on("message", (req) => {
  handle(req).then(
    (body) => reply(req.seq, body),
    (err) => reply(req.seq, { error: errorOf(err) }),
  );
});
