/** The rate/ETA text long embeddings show on a TTY, on an injected clock. */
import { describe, expect, it } from "vitest";
import { createRate } from "../src/cli/progress.js";

describe("createRate", () => {
  it("starts its clock at the first update and reports rate and ETA", () => {
    let t = 1_000;
    const rate = createRate("chunks", () => t);
    expect(rate(8, 1000)).toBe(""); // first update: the clock starts here, after model load
    t += 2_000;
    expect(rate(48, 1000)).toBe("20.0 chunks/s, ETA 48s");
    t += 2_000;
    expect(rate(88, 1000)).toBe("20.0 chunks/s, ETA 46s");
    t += 8_000;
    expect(rate(88, 10_000)).toBe("6.7 chunks/s, ETA 24m47s");
  });

  it("rounds before splitting minutes, so 59.6 s left reads 1m00s, never 0m60s", () => {
    let t = 0;
    const rate = createRate("chunks", () => t);
    rate(0, 606);
    t = 1_000;
    expect(rate(10, 606)).toBe("10.0 chunks/s, ETA 1m00s");
  });
});
