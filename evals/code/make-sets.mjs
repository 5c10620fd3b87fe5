#!/usr/bin/env node
/**
 * Builds the code-search judgment sets of evals/code/ from packages in node_modules
 * (their own source, MIT-licensed): for every function, method or class with a
 * JSDoc comment, the comment's first sentence is the query, the comment is
 * removed from the indexed copy of the file, and the definition's first line is
 * the gold quote. Hand-written questions (questions.jsonl beside each set) are
 * appended. Run from the repository root after `npm run build`:
 *
 *   node evals/code/make-sets.mjs           # rebuild corpus/ and judgments.jsonl from node_modules
 *   node evals/code/make-sets.mjs --twins   # only derive the fixed-size twins from the shipped sets
 *   node evals/code/make-sets.mjs --only eslint   # one set (with --twins too)
 *
 * The twins (not committed) are corpus-txt/, the same files named `.txt`, which
 * groundkit chunks as plain text (the fixed-size baseline), and judgments-txt.jsonl.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parserFor } from "../../dist/ingest/code/grammars.js";

const SETS = [
  { name: "zod", root: "node_modules/zod", include: ["src/v4/core", "src/v4/classic"], license: "LICENSE", grammar: "typescript", exclude: /tests?\/|\.test\./ },
  { name: "undici", root: "node_modules/undici", include: ["lib/api", "lib/core", "lib/dispatcher", "lib/handler", "lib/interceptor", "lib/web/fetch", "lib/web/websocket", "lib/mock", "lib/cache", "lib/util"], license: "LICENSE", grammar: "javascript" },
  // Held out for the hybrid-fusion choice (ADR 0034): CommonJS in another code base's style, no hand-written questions.
  { name: "eslint", root: "node_modules/eslint", include: ["lib/linter", "lib/config", "lib/eslint", "lib/languages", "lib/services", "lib/shared", "lib/rule-tester", "lib/cli-engine", "lib/rules/utils"], license: "LICENSE", grammar: "javascript" },
];

const DEFINITIONS = new Set(["function_declaration", "method_definition", "class_declaration", "generator_function_declaration", "lexical_declaration", "variable_declaration", "export_statement", "abstract_class_declaration", "interface_declaration", "type_alias_declaration", "public_field_definition", "expression_statement"]);

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(js|ts|mjs|cjs)$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** The first sentence of a JSDoc comment, without markup; undefined when too short to be a query. */
function querySentence(comment) {
  const body = comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((l) => l.replace(/^\s*\*\s?/, ""))
    .join("\n");
  const prose = body.split(/\n\s*@/)[0].replace(/\{@link\s+([^}]+)\}/g, "$1").replace(/`/g, "").replace(/\s+/g, " ").trim();
  if (prose.startsWith("@")) return undefined;
  const first = prose.match(/^(.+?[.!?])(\s|$)/)?.[1] ?? prose;
  const words = first.split(" ").filter(Boolean);
  if (words.length < 4 || /^(eslint|istanbul|prettier|ts-)/i.test(first)) return undefined;
  return words.slice(0, 40).join(" ");
}

/** corpus-txt/ and judgments-txt.jsonl from a set's corpus/ and judgments.jsonl. */
function writeTwins(out) {
  rmSync(join(out, "corpus-txt"), { recursive: true, force: true });
  for (const file of walk(join(out, "corpus"))) {
    const rel = relative(join(out, "corpus"), file);
    mkdirSync(dirname(join(out, "corpus-txt", rel)), { recursive: true });
    cpSync(file, join(out, "corpus-txt", `${rel}.txt`));
  }
  const judgments = readFileSync(join(out, "judgments.jsonl"), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  writeFileSync(join(out, "judgments-txt.jsonl"), judgments.map((j) => JSON.stringify({ ...j, gold: j.gold.map((g) => ({ ...g, doc: `${g.doc}.txt` })) })).join("\n") + "\n");
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
for (const set of SETS) {
  if (only !== undefined && set.name !== only) continue;
  const out = join("evals/code", set.name);
  if (process.argv.includes("--twins")) {
    writeTwins(out);
    continue;
  }
  rmSync(join(out, "corpus"), { recursive: true, force: true });
  rmSync(join(out, "corpus-txt"), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const parser = await parserFor(set.grammar);
  const judgments = [];
  const seenQueries = new Set();
  for (const top of set.include) {
    for (const file of walk(join(set.root, top))) {
      const rel = relative(set.root, file);
      if (set.exclude?.test(rel)) continue;
      const text = readFileSync(file, "utf8").replace(/\r\n?/g, "\n");
      const tree = parser.parse(text);
      const golds = [];
      const visit = (node) => {
        const kids = node.namedChildren;
        for (let i = 0; i < kids.length; i++) {
          const k = kids[i];
          const next = kids[i + 1];
          if (k.type === "comment" && k.text.startsWith("/**") && next && DEFINITIONS.has(next.type) && !/\n[ \t]*\n/.test(text.slice(k.endIndex, next.startIndex))) {
            const query = querySentence(k.text);
            if (query) golds.push({ comment: k, def: next, query });
          }
          if (k.namedChildren.length > 0 && k.type !== "comment") visit(k);
        }
      };
      visit(tree.rootNode);
      tree.delete();
      let kept = text;
      // Remove comments back to front so earlier offsets hold; the comment and the indentation before the definition go.
      const valid = [];
      for (const g of golds) {
        if (seenQueries.has(g.query.toLowerCase())) continue;
        const firstLine = text.slice(g.def.startIndex, text.indexOf("\n", g.def.startIndex) === -1 ? text.length : text.indexOf("\n", g.def.startIndex)).trim();
        if (firstLine.length < 8) continue;
        valid.push({ ...g, quote: firstLine });
        seenQueries.add(g.query.toLowerCase());
      }
      for (const g of [...valid].reverse()) {
        kept = kept.slice(0, g.comment.startIndex) + kept.slice(g.def.startIndex);
      }
      for (const g of valid) {
        if (kept.split(g.quote).length !== 2) continue; // the quote must occur exactly once
        judgments.push({ query_id: `${set.name}-doc-${judgments.length + 1}`, query: g.query, category: "normal", gold: [{ doc: rel, quote: g.quote }], notes: "doc comment removed from the indexed file" });
      }
      mkdirSync(dirname(join(out, "corpus", rel)), { recursive: true });
      writeFileSync(join(out, "corpus", rel), kept);
    }
  }
  const extra = join(out, "questions.jsonl");
  if (existsSync(extra)) {
    for (const line of readFileSync(extra, "utf8").split("\n").filter((l) => l.trim())) {
      const q = JSON.parse(line);
      for (const g of q.gold) {
        const content = readFileSync(join(out, "corpus", g.doc), "utf8");
        if (content.split(g.quote).length !== 2) throw new Error(`${q.query_id}: quote not found exactly once in ${g.doc}: ${g.quote}`);
      }
      judgments.push(q);
    }
  }
  cpSync(join(set.root, set.license), join(out, "LICENSE"));
  const version = JSON.parse(readFileSync(join(set.root, "package.json"), "utf8")).version;
  writeFileSync(join(out, "SOURCE.md"), `${set.name}@${version} (MIT, LICENSE beside this file), from node_modules/${set.name}: ${set.include.join(", ")}.\nDoc comments of judged definitions are removed from corpus/; \`node evals/code/make-sets.mjs --twins\` derives corpus-txt/ (the same files named .txt, chunked as plain text).\n`);
  writeFileSync(join(out, "judgments.jsonl"), judgments.map((j) => JSON.stringify(j)).join("\n") + "\n");
  writeTwins(out);
  console.log(`${set.name}: ${judgments.length} judgments`);
}
