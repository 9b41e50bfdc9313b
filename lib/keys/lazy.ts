/**
 * pravo's cryptography, loaded on first need: `node:crypto` and the modules
 * built on it (key.ts, seal.ts) cost a start ~15-20 ms together with the
 * rest of Deno's Node layer, which a command that reads a state holding no
 * secret does not need (docs/performance.md, "Commands that need no CUE").
 *
 * The state's sealing and redaction are synchronous; the store awaits
 * {@linkcode loadCrypto} at its asynchronous entry points before any of them
 * runs (lib/state/store_base.ts, lib/state/sqlite/store.ts,
 * lib/state/postgres/store.ts), and the synchronous code takes the modules
 * from {@linkcode cryptoModules}.
 *
 * @module
 */

import type * as KeyModule from "./key.ts";
import type * as SealModule from "./seal.ts";
import type * as NodeCrypto from "node:crypto";

/** The modules {@linkcode loadCrypto} loads. */
export interface CryptoModules {
  key: typeof KeyModule;
  seal: typeof SealModule;
  crypto: typeof NodeCrypto;
}

let loaded: CryptoModules | undefined;
let loading: Promise<CryptoModules> | undefined;

/** Loads pravo's cryptography (once); later calls return at once. */
export async function loadCrypto(): Promise<CryptoModules> {
  if (loaded) return loaded;
  loading ??= Promise.all([import("./key.ts"), import("./seal.ts"), import("node:crypto")])
    .then(([key, seal, crypto]) => loaded = { key, seal, crypto });
  return await loading;
}

/** The modules, once {@linkcode loadCrypto} has loaded them; a bug before. */
export function cryptoModules(): CryptoModules {
  if (!loaded) throw new Error("bug: pravo's cryptography is used before loadCrypto()");
  return loaded;
}
