/**
 * Factories for the extractors that run in the calling thread. Only the
 * extraction worker (extraction-worker.ts) and tests call them: everywhere else
 * extraction goes through the bounded worker (extraction-pool.ts).
 */
import type { Extractor, ExtractorKind } from "./extractor.js";

/** Build one kind's in-thread extractor; throws when its dependency is missing or broken. */
export const IN_PROCESS_EXTRACTOR_PROBES: Readonly<Record<ExtractorKind, () => Promise<Extractor>>> = {
  pdf: async () => (await import("./pdf.js")).createPdfExtractor(),
  html: async () => (await import("./html.js")).createHtmlExtractor(),
  office: async () => (await import("./office.js")).createOfficeExtractor(),
};
