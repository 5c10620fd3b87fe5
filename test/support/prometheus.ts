/**
 * Reading a Prometheus text-format scrape in tests, with a real parser
 * (parse-prometheus-text-format, prom2json's output shape).
 */
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from "parse-prometheus-text-format";

/** A parsed scrape: families by name. */
export class Scrape {
  readonly families: Map<string, ParsedFamily>;

  constructor(readonly text: string) {
    // Throws on any line that is not valid text format.
    this.families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  }

  /** The sample of `name` whose labels include `labels` (undefined when there is none). */
  sample(name: string, labels: Record<string, string> = {}): ParsedSample | undefined {
    const family = this.families.get(name);
    return family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** A counter's or gauge's value; 0 when the labelled series does not exist yet. */
  value(name: string, labels: Record<string, string> = {}): number {
    const s = this.sample(name, labels);
    return s?.value === undefined ? 0 : Number(s.value);
  }

  /**
   * A histogram's observation count; 0 when the series does not exist yet.
   * The parser folds a histogram's label sets into one (it keeps only `le`),
   * so the series is read from its own `<name>_count{…}` line of the scrape.
   */
  count(name: string, labels: Record<string, string> = {}): number {
    if (this.families.get(name)?.type !== "HISTOGRAM") return 0;
    for (const line of this.text.split("\n")) {
      const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m || m[1] !== `${name}_count`) continue;
      const found = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
      if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
    }
    return 0;
  }
}
