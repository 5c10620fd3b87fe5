/**
 * Markdown summary of one run's results (bench/results/<name>.md, the console
 * table, and the sections of docs/benchmarks.md). Every number comes from the
 * results object; nothing here measures.
 */
import { QUERY_CLASSES } from "./queries.js";
import type { BenchResults } from "./suite.js";
import type { EmbeddingResult } from "./dense.js";
import { openWallMs } from "./targets.js";

const fmt = (x: number | null | undefined, digits = 2): string =>
  x === null || x === undefined || Number.isNaN(x) ? "–" : Number(x.toFixed(digits)).toLocaleString("en-US", { maximumFractionDigits: digits });

/** A ratio with two significant digits when small (0.0031×), two decimals otherwise. */
const ratio = (x: number | undefined): string =>
  x === undefined || Number.isNaN(x) ? "–" : `${x !== 0 && Math.abs(x) < 0.1 ? Number(x.toPrecision(2)) : fmt(x, 2)}×`;

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)];
}

/** Render one run as Markdown; `level` is the heading level of its sections. */
export function renderMarkdown(r: BenchResults, level = 2): string {
  const h = "#".repeat(level);
  const out: string[] = [];
  const git = r.git ? `${r.git.commit.slice(0, 10)}${r.git.dirty ? " (uncommitted changes)" : ""}` : "unknown";
  out.push(
    `Run \`${r.name}\` at ${r.created_at}, commit ${git}; ${r.machine.cpus} × ${r.machine.cpu_model}, ${r.machine.memory_gb} GB, Node ${r.machine.node}; ` +
      `tasks ${r.config.runner === "child" ? "each in a fresh process" : "in-process"}; took ${fmt(r.duration_s, 0)} s; ` +
      `load average ${r.machine.load_average_start.join("/")} at start, ${r.machine.load_average_end.join("/")} at end (1/5/15 min; above ~0 means other work shared the cores). ` +
      `Chunker ${r.config.chunker.chunk_size}/${r.config.chunker.chunk_overlap}.`,
    "",
  );

  if (r.points.length > 0) {
    out.push(`${h} Ingest (BM25 only)`, "");
    out.push(
      ...table(
        ["point", "documents", "chunks", "MiB of text", "increment s", "CPU s", "docs/s", "chunks/s", "MB/s", "peak RSS MiB", "index MiB", "bytes/chunk"],
        r.points.map((p) => {
          const inc = p.increment;
          const s = inc ? inc.ingest.duration_ms / 1000 : NaN;
          return [
            p.label,
            fmt(p.documents, 0),
            fmt(p.chunks, 0),
            fmt(p.corpus_bytes / 2 ** 20, 1),
            fmt(s, 1),
            inc && inc.ingest.cpu_user_s !== undefined ? fmt(inc.ingest.cpu_user_s + inc.ingest.cpu_system_s, 1) : "–",
            inc ? fmt(inc.ingest.indexed / s, 0) : "–",
            inc ? fmt(inc.ingest.chunks_written / s, 0) : "–",
            inc ? fmt(inc.corpus.bytes / 1e6 / s, 2) : "–",
            inc ? fmt(Math.max(inc.ingest.memory.max_rss_mb, inc.ingest.memory.peak_rss_mb), 0) : "–",
            fmt(p.index?.mb, 1),
            fmt(p.index?.bytes_per_chunk, 0),
          ];
        }),
      ),
      "",
    );
    const t = r.ingest_total;
    if (t) {
      out.push(
        `Total: ${fmt(t.documents, 0)} documents, ${fmt(t.chunks, 0)} chunks, ${fmt(t.mb, 1)} MiB ingested in ${fmt(t.duration_s, 1)} s ` +
          `(${fmt(t.docs_per_s, 0)} docs/s, ${fmt(t.chunks_per_s, 0)} chunks/s, ${fmt(t.mb_per_s, 2)} MiB/s); peak RSS of the ingesting process ${fmt(t.peak_rss_mb, 0)} MiB.`,
        "",
      );
    }
    const biggest = r.points.at(-1)?.increment;
    if (biggest && biggest.ingest.memory.series.length > 1) {
      const { series, anon_series: anon = [] } = biggest.ingest.memory;
      const index = (f: number) => Math.min(series.length - 1, Math.round(f * (series.length - 1)));
      const point = (f: number) => {
        const [t, rss] = series[index(f)]!;
        const a = anon[index(f)];
        return `${fmt(rss, 0)} MiB${a ? ` (${fmt(a[1], 0)} anonymous)` : ""} at ${fmt(t, 0)} s`;
      };
      out.push(
        `RSS while ingesting the last increment (is memory flat?): ${[0, 0.25, 0.5, 0.75, 1].map(point).join(", ")}.` +
          (anon.length > 0
            ? " Anonymous memory is the process's own allocations; the rest is file-backed (the index's memory-mapped pages, up to 256 MiB, and shared libraries), which the kernel can reclaim."
            : ""),
        "",
      );
    }
  }

  const withBm25 = r.points.filter((p) => p.bm25);
  if (withBm25.length > 0) {
    out.push(`${h} BM25 query latency (ms)`, "");
    const rows: string[][] = [];
    for (const p of withBm25) {
      for (const c of QUERY_CLASSES) {
        const cl = p.bm25!.classes[c];
        const peer = p.peer?.classes[c];
        if (!cl) continue;
        rows.push([
          p.label,
          c,
          fmt(cl.latency.p50_ms, 3),
          fmt(cl.latency.p95_ms, 3),
          fmt(cl.latency.p99_ms, 3),
          `${cl.latency.runs} (+${cl.latency.warmup} warm-up)`,
          fmt(cl.mean_hits, 1),
          peer ? fmt(peer.latency.p50_ms, 3) : "–",
          ratio(p.ratios?.query_p50[c]),
        ]);
      }
    }
    out.push(...table(["point", "class", "p50", "p95", "p99", "runs", "mean hits", "MiniSearch p50", "ours/theirs p50"], rows), "");
    out.push(
      "Classes: `short` = 1–8 terms (search-log lengths; 60% Zipf-drawn, 40% rare-tail words), `long12` = 12 Zipf-drawn terms, " +
        "`paragraph` = a 40–80-word paragraph pasted from a corpus document. Top 10 per query.",
      "",
    );
  }

  const withPeer = r.points.filter((p) => p.peer);
  if (withPeer.length > 0) {
    out.push(`${h} Side by side with MiniSearch (same chunks, same queries, same run)`, "");
    out.push(
      ...table(
        ["point", "ours ingest s", "MiniSearch ingest s (read+chunk / index)", "ingest ours/theirs", "ours RSS held MiB", "MiniSearch RSS held MiB", "memory ours/theirs", "heap ours/theirs MiB"],
        withPeer.map((p) => {
          const oursIngest = r.points.filter((q) => q.target <= p.target).reduce((n, q) => n + (q.increment?.ingest.duration_ms ?? 0), 0);
          return [
            p.label,
            fmt(oursIngest / 1000, 1),
            `${fmt(p.peer!.ingest_ms / 1000, 1)} (${fmt(p.peer!.read_chunk_ms / 1000, 1)} / ${fmt(p.peer!.index_ms / 1000, 1)})`,
            ratio(p.ratios?.ingest_time),
            fmt(p.bm25?.memory.rss_delta_mb, 1),
            fmt(p.peer!.memory.rss_delta_mb, 1),
            ratio(p.ratios?.memory_rss),
            `${fmt(p.bm25?.memory.heap_delta_mb, 1)} / ${fmt(p.peer!.memory.heap_delta_mb, 1)}`,
          ];
        }),
      ),
      "",
      `Peer: ${withPeer[0]!.peer!.library}, default options. Memory held = RSS (and heap) after GC with the index open and queried, minus before, each in its own fresh process.`,
      "",
    );
  }

  const withOpen = r.points.filter((p) => p.open);
  if (withOpen.length > 0) {
    out.push(`${h} Open a collection and answer a first query`, "");
    out.push(
      ...table(
        ["point", "import ms", "open ms", "first query ms", "open+query ms (in library)", "process wall ms (script)", "CLI wall ms (median)", "method"],
        withOpen.map((p) => {
          const o = p.open!;
          const m = (f: (x: (typeof o.script)[number]) => number) => fmt([...o.script.map(f)].sort((a, b) => a - b)[Math.floor(o.script.length / 2)], 1);
          return [p.label, m((x) => x.import_ms), m((x) => x.open_ms), m((x) => x.first_query_ms), m((x) => x.open_and_first_query_ms), m((x) => x.wall_ms), fmt(o.cli?.median_wall_ms, 0), `${o.method}, ${o.script.length} runs`];
        }),
      ),
      "",
    );
    const w = openWallMs(withOpen.at(-1)!);
    if (w !== undefined) out.push(`Fresh-process wall time at the largest point: ${fmt(w, 0)} ms (includes Node start-up).`, "");
  }

  if (r.startup) {
    out.push(`${h} Start-up (whole process)`, "");
    out.push(
      ...table(
        ["command", "median ms", "min ms", "max ms", "IQR ms", "runs"],
        r.startup.cases.map((c) => [c.name, fmt(c.median_ms, 1), fmt(c.min_ms, 1), fmt(c.max_ms, 1), fmt(c.iqr_ms, 1), String(c.runs_ms.length)]),
      ),
      "",
      `Each run is a fresh \`node dist/cli/main.js …\` process timed from spawn to exit, after one unmeasured warm-up; ` +
        `the search is BM25 over the repository's docs/ (a small collection: this measures start-up and imports, not scoring). ` +
        `Read it with the load average above: on a busy machine every row grows, the floor (\`node -e 0\`) with it.`,
      "",
    );
  }

  if (r.mcp) {
    const m = r.mcp;
    out.push(`${h} MCP payloads (what an agent reads)`, "");
    out.push(
      ...table(
        ["payload", "bytes", "tokens (est.)"],
        [
          [`tools/list, read-only (${m.tools_list.read_only.tools.length} tools)`, fmt(m.tools_list.read_only.bytes, 0), fmt(m.tools_list.read_only.tokens_est, 0)],
          ...m.tools_list.read_only.tools.map((t) => [`  ${t.name}`, fmt(t.bytes, 0), fmt(t.tokens_est, 0)]),
          [`tools/list with the mutating tools (${m.tools_list.with_token.tools})`, fmt(m.tools_list.with_token.bytes, 0), fmt(m.tools_list.with_token.tokens_est, 0)],
        ],
      ),
      "",
      ...table(
        ["result (mean over calls)", "calls", "text block B", "structured B", "wire B (both)", "wire median B", "wire max B", "text tokens (est.)", "structured tokens (est.)"],
        [
          ...(["compact", "full"] as const).map((f) => {
            const s = m.search[f];
            return [`search top-10, ${f}${f === "compact" ? " (MCP default)" : ""}`, fmt(s.wire.calls, 0), fmt(s.text.bytes_mean, 0), fmt(s.structured.bytes_mean, 0), fmt(s.wire.bytes_mean, 0), fmt(s.wire.bytes_median, 0), fmt(s.wire.bytes_max, 0), fmt(s.text.tokens_est_mean, 0), fmt(s.structured.tokens_est_mean, 0)];
          }),
          ["fetch_chunk of the top compact hit", fmt(m.fetch_chunk.calls, 0), "", "", fmt(m.fetch_chunk.bytes_mean, 0), fmt(m.fetch_chunk.bytes_median, 0), fmt(m.fetch_chunk.bytes_max, 0), "", ""],
        ],
      ),
      "",
      `${m.queries} queries of the golden corpus (evals/), through the MCP SDK's stdio client against \`grk serve-mcp\`. ` +
        `Tokens: ${m.token_estimate}. A client hands the model the text block or the structured content, rarely both; the wire carries both.`,
      "",
    );
  }

  if (r.verify) {
    out.push(`${h} Verification throughput`, "");
    out.push(
      ...table(
        ["source class", "citations", "per second", "verdicts", "sources"],
        (["text", "extracted", "snapshot"] as const).map((c) => {
          const v = r.verify![c];
          return [c, fmt(v.citations, 0), fmt(v.per_second, 1), Object.entries(v.verdicts).map(([k, n]) => `${k} ${n}`).join(", "), fmt(v.sources, 0)];
        }),
      ),
      "",
      "text: files of the main corpus; extracted: generated PDFs (each check re-runs the PDF extractor); snapshot: HTML pages served on 127.0.0.1, ingested as URLs (each check re-reads the stored snapshot).",
      "",
    );
  }

  if (r.vectors) {
    out.push(`${h} Vector search (sqlite-vec, generated ${r.vectors.dimensions}-d vectors, ${r.vectors.distance})`, "");
    out.push(
      ...table(
        ["vectors", "fill vectors/s", "file MiB", "bytes/vector", "k=10 p50", "k=10 p95", "k=10 p99", "k=50 p50", "k=50 p99", "runs"],
        r.vectors.points.map((p) => [
          fmt(p.vectors, 0),
          fmt(p.fill_vectors_per_s, 0),
          fmt(p.file_mb, 1),
          fmt(p.bytes_per_vector, 0),
          fmt(p.knn10.p50_ms, 2),
          fmt(p.knn10.p95_ms, 2),
          fmt(p.knn10.p99_ms, 2),
          fmt(p.knn50.p50_ms, 2),
          fmt(p.knn50.p99_ms, 2),
          `${p.knn10.runs} (+${p.knn10.warmup})`,
        ]),
      ),
      "",
    );
  }

  const annPoints = r.vectors?.points.filter((p) => p.ann !== undefined) ?? [];
  if (annPoints.length > 0) {
    out.push(
      `${h} ANN vs exact (usearch HNSW, 8-bit graph re-ranked by the float vectors; same vectors, same run)`,
      "",
    );
    out.push(
      ...table(
        [
          "vectors",
          "recall@10",
          "k=10 p50 exact / ANN",
          "k=10 p95 exact / ANN",
          "k=10 p99 exact / ANN",
          "k=50 p50 exact / ANN",
          "k=50 p95 exact / ANN",
          "k=50 p99 exact / ANN",
          "build s",
          "build vectors/s",
          "new vectors/s (catch-up)",
          "fold 2k new into file s",
          "index RSS MiB",
          "index file MiB",
        ],
        annPoints.map((p) => {
          const a = p.ann!;
          const pair = (e: number, x: number): string => `${fmt(e, 2)} / ${fmt(x, 2)}`;
          return [
            fmt(p.vectors, 0),
            fmt(a.recall10, 4),
            pair(p.knn10.p50_ms, a.knn10.p50_ms),
            pair(p.knn10.p95_ms, a.knn10.p95_ms),
            pair(p.knn10.p99_ms, a.knn10.p99_ms),
            pair(p.knn50.p50_ms, a.knn50.p50_ms),
            pair(p.knn50.p95_ms, a.knn50.p95_ms),
            pair(p.knn50.p99_ms, a.knn50.p99_ms),
            fmt(a.build_ms / 1000, 1),
            fmt(a.build_vectors_per_s, 0),
            fmt(a.catch_up_vectors_per_s, 0),
            fmt(a.sync_ms / 1000, 1),
            fmt(a.rss_mb, 1),
            fmt(a.file_mb, 1),
          ];
        }),
      ),
      "",
      `Exact = sqlite-vec's scan (the table above), timed on ${r.vectors!.points[0]?.knn10.runs ?? "the"} queries. ANN latency is timed on ${annPoints[0]!.ann!.knn10.runs} other queries from the same distribution (recall@10 on the exact ones) and includes the store's checks on every search (the vector log's state, re-ranking candidates by the float vectors in the index's vectors file). Build = a fresh index of every vector, saved. Catch-up = 2,000 new vectors committed after the build, absorbed by the next search; fold = the next ingest's sync writing them into the saved index. Index file = the graph plus its re-rank vectors file.`,
      "",
    );
    const filtered = annPoints.flatMap((p) => (p.ann!.filtered ?? []).map((f) => ({ vectors: p.vectors, ...f })));
    if (filtered.length > 0) {
      out.push(`${h} Filtered dense search, k = 10: exact vs the widened graph`, "");
      out.push(
        ...table(
          ["vectors", "selectivity", "passing", "exact p50 (sqlite-vec scan)", "exact p50 (point reads)", "ANN p50", "ANN recall@10", "ANN fell back to exact"],
          filtered.map((f) => [
            fmt(f.vectors, 0),
            `${fmt(f.selectivity * 100, 1)}%`,
            fmt(f.passing, 0),
            fmt(f.exact_p50_ms, 2),
            f.exact_point_reads_p50_ms === null ? "—" : fmt(f.exact_point_reads_p50_ms, 2),
            fmt(f.ann_p50_ms, 2),
            fmt(f.ann_recall10, 4),
            fmt(f.ann_fallbacks, 0),
          ]),
        ),
        "",
      );
    }
  }

  if (r.dense) {
    out.push(`${h} Dense and hybrid`, "");
    const d = r.dense;
    const e = d.embedding;
    if (e && "sentences_per_s" in e) {
      out.push(
        `Local model ${e.model} (${e.dimensions}-d): ${fmt(e.sentences_per_s, 1)} sentences/s on ${e.sentences} corpus chunks (mean ${e.mean_chars} chars), ` +
          `model load ${fmt(e.load_ms / 1000, 1)} s; query embedding p50 ${fmt(e.query_embedding.p50_ms, 1)} ms, p95 ${fmt(e.query_embedding.p95_ms, 1)} ms (${e.query_embedding.runs} runs).`,
        "",
      );
    } else if (e) {
      out.push(`Local model: unavailable: ${e.unavailable} (${e.message}).`, "");
    }
    // Every model and text case of the same run (same machine load): the default and USE-lite on the generated
    // chunks, USE-lite on real ~1,000-character texts, MiniLM fp32 and int8 on those and on full windows.
    const side = [e, d.embedding_use_lite, d.embedding_use_lite_long, ...(d.embedding_precisions ?? [])].filter(
      (x): x is EmbeddingResult => x != null && "sentences_per_s" in x,
    );
    if (side.length >= 2) {
      out.push(
        ...table(
          ["model", "texts", "full windows", "dims", "chunks/s", "CPU ms/chunk", "mean chars", "load s", "query p50 ms", "query p95 ms", "peak RSS MiB"],
          side.map((x) => [
            x.model.split(";")[0]!,
            x.texts ?? "chunks",
            x.full_windows === undefined ? "–" : `${x.full_windows}/${x.sentences}`,
            String(x.dimensions),
            fmt(x.sentences_per_s, 1),
            x.cpu_ms_per_sentence === undefined ? "–" : fmt(x.cpu_ms_per_sentence, 1),
            String(x.mean_chars),
            fmt(x.load_ms / 1000, 1),
            fmt(x.query_embedding.p50_ms, 1),
            fmt(x.query_embedding.p95_ms, 1),
            x.peak_rss_mb === undefined ? "–" : fmt(x.peak_rss_mb, 0),
          ]),
        ),
        "",
      );
    }
    for (const p of d.bm25_only_probe ?? []) {
      out.push(`- ${p.mode} search on the BM25-only collection: ${p.outcome === "refused" ? `refused, ${p.code}: ${p.message}` : `answered (${p.hits} hits)`}`);
    }
    if (d.bm25_only_probe) out.push("");
    const ing = d.collection?.ingest;
    if (ing) {
      const ignored = d.dense?.unavailable !== undefined;
      out.push(
        `Collection ingested with \`dense: true\`: ${fmt(ing.total_chunks, 0)} chunks in ${fmt(ing.duration_ms / 1000, 1)} s (${fmt(ing.total_chunks / (ing.duration_ms / 1000), 1)} chunks/s), peak RSS ${fmt(ing.memory.max_rss_mb, 0)} MiB` +
          (ignored ? " — no vectors were written (dense search answers " + d.dense!.unavailable + "), so this is a BM25-only ingest." : "."),
        "",
      );
    }
    const rows: string[][] = [];
    for (const mode of ["dense", "hybrid"] as const) {
      const q = d[mode];
      if (!q) continue;
      if (q.unavailable) {
        rows.push([mode, "all", `unavailable: ${q.unavailable}`, "", "", "", ""]);
        continue;
      }
      const embedP50 = e && "query_embedding" in e ? e.query_embedding.p50_ms : undefined;
      for (const c of QUERY_CLASSES) {
        const cl = q.classes[c];
        if (!cl) continue;
        rows.push([mode, c, fmt(cl.latency.p50_ms, 2), fmt(cl.latency.p95_ms, 2), fmt(cl.latency.p99_ms, 2), embedP50 !== undefined ? fmt(Math.max(0, cl.latency.p50_ms - embedP50), 2) : "–", `${cl.latency.runs}`]);
      }
    }
    if (rows.length > 0) out.push(...table(["mode", "class", "p50 ms", "p95 ms", "p99 ms", "p50 − query-embedding p50", "runs"], rows), "");
  }

  if (r.targets.length > 0) {
    out.push(`${h} Targets`, "");
    out.push(
      ...table(
        ["issue", "target", "measured", "met"],
        r.targets.map((t) => [`#${t.issue}`, `${t.description} ${t.target}`, `${fmt(t.measured, 3)} ${t.unit}`, t.met ? "yes" : "**no**"]),
      ),
      "",
    );
  }
  if (r.errors.length > 0) {
    out.push(`${h} Stages that failed`, "");
    for (const e of r.errors) out.push(`- ${e.stage}: ${e.message.split("\n")[0]}`);
    out.push("");
  }
  return out.join("\n");
}
