/**
 * Decoding a streamed HTTP body line by line: bytes arrive in arbitrary
 * chunks (a UTF-8 character or a line may be split between two), so a
 * streaming TextDecoder and a carry-over of the unfinished line are kept.
 * Server-Sent Events (OpenAI) and NDJSON (Ollama) are both line formats.
 */

/**
 * Feed body chunks; get back each complete line (without its line ending).
 *
 * @example
 *   const lines = new LineSplitter();
 *   lines.push(bytes).forEach(handle); lines.end().forEach(handle);
 */
export class LineSplitter {
  private readonly decoder = new TextDecoder("utf-8");
  private carry = "";

  push(chunk: Uint8Array): string[] {
    return this.split(this.carry + this.decoder.decode(chunk, { stream: true }));
  }

  /** The last line, when the body did not end with a line break. */
  end(): string[] {
    const rest = this.carry + this.decoder.decode();
    this.carry = "";
    return rest === "" ? [] : [rest.replace(/\r$/, "")];
  }

  private split(text: string): string[] {
    const parts = text.split("\n");
    this.carry = parts.pop() ?? "";
    return parts.map((line) => line.replace(/\r$/, ""));
  }
}

/** The data of an SSE `data:` line, or undefined for comments, other fields and blank lines. */
export function sseData(line: string): string | undefined {
  if (!line.startsWith("data:")) return undefined;
  const value = line.slice(5);
  return value.startsWith(" ") ? value.slice(1) : value;
}

/** Every line of a whole body (for a stream that was buffered before being parsed). */
export function allLines(text: string): string[] {
  return text.split("\n").map((line) => line.replace(/\r$/, ""));
}
