/**
 * The serve logger's batching: info lines of one event-loop turn reach stderr
 * in one write, in order; a warning goes out at once, after what was gathered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../src/obs/logger.js";

let writes: string[];

beforeEach(() => {
  writes = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    writes.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("batched logger", () => {
  it("writes a turn's info lines in one write, in order", async () => {
    const log = createLogger({ format: "json", batch: true });
    log.info("request", { n: 1 });
    log.info("request", { n: 2 });
    log.info("request", { n: 3 });
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { n: number }).n)).toEqual([1, 2, 3]);
  });

  it("writes a warning at once, after the lines gathered before it", async () => {
    const log = createLogger({ format: "text", batch: true });
    log.info("first");
    log.warn("careful");
    expect(writes.join("")).toBe("info: first\nwarn: careful\n");
    await nextTurn();
    expect(writes.join("")).toBe("info: first\nwarn: careful\n");
  });

  it("writes each line at once without batch", () => {
    const log = createLogger({ format: "text" });
    log.info("a");
    log.info("b");
    expect(writes).toEqual(["info: a\n", "info: b\n"]);
  });
});
