/**
 * Installing and pinning Terraform/OpenTofu providers, shaped like
 * OpenTofu's `getproviders` and `providercache`:
 *
 * - addresses and versions: `address.ts`, `version.ts`, `platform.ts`;
 * - where packages come from, one {@link Source} per place:
 *   `filesystem_mirror_source.ts` (mirrors and the plugin cache),
 *   `registry_source.ts` (the provider registry protocol),
 *   `multi_source.ts`, `memoize_source.ts`;
 * - trust: `hash.ts` (`h1:`, `zh:`), `hash_cache.ts`, `authentication.ts`
 *   (SHA256SUMS and its signature), `openpgp.ts`;
 * - installing: `installer.ts` into the cache of `cache_dir.ts`, pinned in
 *   `lock.ts`;
 * - before a provider starts: `executable.ts`.
 *
 * @module
 */

export * from "./address.ts";
export * from "./cache_dir.ts";
export * from "./executable.ts";
export * from "./hash.ts";
export * from "./hash_cache.ts";
export * from "./installer.ts";
export * from "./lock.ts";
export * from "./platform.ts";
export * from "./source.ts";
export * from "./version.ts";
