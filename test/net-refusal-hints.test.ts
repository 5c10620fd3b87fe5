/**
 * The hint of an SSRF refusal fits the case (issue 25 #18): a metadata (or link-local,
 * reserved…) address is refused whatever `allow_private_network` says, so neither the
 * message nor the hint may tell the user to set it, least of all when it is already
 * set; a private address without the setting still says how to allow it.
 */
import { describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { postWithRetry } from "../src/net/http-retry.js";
import { vetHost } from "../src/net/ssrf-guard.js";

async function refusal(p: Promise<unknown>): Promise<GroundkitError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundkitError);
  expect((err as GroundkitError).code).toBe("SSRF_BLOCKED");
  return err as GroundkitError;
}

const endpoint = (url: string, allowPrivateNetwork: boolean) =>
  postWithRetry(url, { input: "x" }, { service: "Embedding", failureCode: "EMBEDDING_FAILED", allowPrivateNetwork, retry: { maxAttempts: 1 } });

describe("SSRF refusal hints", () => {
  it("a metadata or link-local endpoint with allow_private_network set: never told to set it", async () => {
    for (const url of ["http://169.254.169.254/v1/embeddings", "http://[fd00:ec2::254]/v1/embeddings", "http://169.254.10.10/v1/embeddings"]) {
      const e = await refusal(endpoint(url, true));
      expect(e.message, url).not.toContain("set allow_private_network");
      expect(e.hint, url).not.toContain("pass --allow-private-network");
      expect(e.hint, url).toContain("whatever allow_private_network says");
    }
  });

  it("a metadata host checked directly: the hint says no setting allows it", async () => {
    for (const host of ["169.254.169.254", "metadata.google.internal"]) {
      const e = await refusal(vetHost(host, { allowPrivateNetwork: true }));
      expect(e.hint, host).toContain("is refused whatever --allow-private-network");
    }
  });

  it("a private endpoint without the setting is still told how to allow it", async () => {
    const e = await refusal(endpoint("http://10.1.2.3/v1/embeddings", false));
    expect(e.message).toContain("set allow_private_network: true");
    expect(e.hint).toContain("--allow-private-network");
  });
});
