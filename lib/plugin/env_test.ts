import assert from "node:assert/strict";
import { isDenied, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, providerEnvironment } from "./env.ts";

Deno.test("providerEnvironment() passes the user's environment and none of pravo's variables", () => {
  const { env, clearEnv } = providerEnvironment({
    protocols: [5, 6],
    provider: "hashicorp/aws",
    clientCertPem: "CERT",
    socketDir: "/tmp/pravo-plugin-x",
    source: {
      PATH: "/usr/bin",
      AWS_PROFILE: "prod",
      KUBECONFIG: "/k",
      PRAVO_KEY: "c2VjcmV0",
      PRAVO_KEY_FILE: "/keys/k",
      Pravo_State: "postgres://u:pw@h/db",
      DENO_AUTH_TOKENS: "t@h",
      DENO_DIR: "/d",
      PLUGIN_CLIENT_CERT: "forged",
      TF_PLUGIN_MAGIC_COOKIE: "forged",
    },
    extra: { GOOGLE_PROJECT: "p", PRAVO_EXTRA: "no", PLUGIN_PROTOCOL_VERSIONS: "4" },
  });
  assert.equal(clearEnv, true);
  assert.deepEqual(env, {
    PATH: "/usr/bin",
    AWS_PROFILE: "prod",
    KUBECONFIG: "/k",
    GOOGLE_PROJECT: "p",
    TF_LOG_PROVIDER: "WARN",
    TF_LOG_SDK: "WARN",
    TF_LOG_PROVIDER_AWS: "WARN",
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_CLIENT_CERT: "CERT",
    PLUGIN_UNIX_SOCKET_DIR: "/tmp/pravo-plugin-x",
  });
});

Deno.test("providerEnvironment() leaves the provider's logging alone when the user set TF_LOG", () => {
  const { env } = providerEnvironment({
    protocols: [5],
    provider: "hashicorp/aws",
    source: { TF_LOG: "trace" },
  });
  assert.equal(env.TF_LOG, "trace");
  assert.equal(env.TF_LOG_PROVIDER, undefined);
  assert.equal(env.TF_LOG_PROVIDER_AWS, undefined);
  assert.equal(env.PLUGIN_CLIENT_CERT, undefined, "no AutoMTLS: no certificate");
});

Deno.test("isDenied() covers pravo's and Deno's variables in any case", () => {
  for (const n of ["PRAVO_KEY", "pravo_key", "PRAVO_", "DENO_AUTH_TOKENS", "deno_dir"]) {
    assert.ok(isDenied(n), n);
  }
  for (const n of ["AWS_SECRET_ACCESS_KEY", "PRAVOX", "HOME", "XPRAVO_KEY"]) {
    assert.ok(!isDenied(n), n);
  }
});
