/**
 * Markdown front matter (a `---` block at the very top) parsed for metadata:
 * scalar fields and lists (`tags: [a, b]` or `- item` lines). A deliberately
 * small YAML subset: anything fancier is kept as its raw string.
 */

export type FrontMatter = Record<string, string | string[]>;

function unquote(v: string): string {
  const t = v.trim();
  if ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))) return t.slice(1, -1);
  return t;
}

/** Parse front matter from normalized content; returns {} when there is none. */
export function parseFrontMatter(content: string): FrontMatter {
  if (!content.startsWith("---\n")) return {};
  const end = content.indexOf("\n---", 4);
  if (end < 0) return {};
  const out: FrontMatter = {};
  let listKey: string | undefined;
  for (const line of content.slice(4, end).split("\n")) {
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey) {
      const list = out[listKey];
      if (Array.isArray(list)) list.push(unquote(item[1]!));
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    const value = kv[2]!.trim();
    if (value === "") {
      out[key] = [];
      listKey = key;
    } else if (value.startsWith("[") && value.endsWith("]")) {
      out[key] = value
        .slice(1, -1)
        .split(",")
        .map(unquote)
        .filter((s) => s.length > 0);
      listKey = undefined;
    } else {
      out[key] = unquote(value);
      listKey = undefined;
    }
  }
  return out;
}
