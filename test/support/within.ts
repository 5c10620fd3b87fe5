/**
 * The answer of `p`, or "no answer" when none came within a generous client
 * wait: separates "answers" from "stalled" (a frozen server took 18-49 s in
 * issue 25), never a timing claim.
 */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | "no answer"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"no answer">((resolve) => (timer = setTimeout(() => resolve("no answer"), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
