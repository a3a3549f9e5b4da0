// The few helpers the flow needs around openapi-fetch: a client per caller, unwrapping a success, polling for an
// eventual state. Everything else is the generated types.
import assert from "node:assert/strict";
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../generated/kith-api.js";

/** A typed client of the Kith API: every path, parameter and body is checked against the OpenAPI document. */
export type Kith = Client<paths>;

/** The Kith under test (TypeScriptClientFlowTest passes its own). */
export const BASE_URL = process.env.KITH_URL ?? "http://127.0.0.1:8080";

/** How long the flow waits for an eventual state (fan-out, notifications) before it gives up. */
const WAIT_MS = 60_000;

/** A client that presents this access token, or an anonymous one. */
export function kith(accessToken?: string): Kith {
  return createClient<paths>({
    baseUrl: BASE_URL,
    headers: accessToken === undefined ? {} : { Authorization: `Bearer ${accessToken}` },
  });
}

/** The typed body of a successful answer; a failure throws with its status and problem. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, what: string): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    throw new Error(`${what}: ${response.status} ${JSON.stringify(error)}`);
  }
  return data;
}

/**
 * Asks {@code attempt} again until it answers a value, then returns that value; after a generous deadline (the
 * suite runs with every core busy) it throws naming {@code what}.
 */
export async function until<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`gave up waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A fresh name usable as a username (a letter first, then letters and digits; 3 to 30 characters). */
export function unique(prefix: string): string {
  return prefix + Date.now().toString(36) + Math.floor(Math.random() * 36 ** 4).toString(36);
}

/** A value that must be there: the flow reads on only when it is. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) {
    throw new Error(`${what} is missing`);
  }
  return value;
}

/**
 * assert.equal whose expected value must have the type the document gives the actual one: a response member typed
 * otherwise in the document (a count as a string, an id as an object) fails `tsc` where the flow compares it.
 */
export function equal<T>(actual: T, expected: NoInfer<T>, message?: string): void {
  assert.equal(actual, expected, message);
}
