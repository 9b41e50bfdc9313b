import { strict as assert } from "node:assert";
import { zipOf } from "../../tests/_registry.ts";
import {
  DEFAULT_REGISTRY,
  FetchError,
  fetchModule,
  parseCueRegistry,
  RegistryError,
  repositoryOf,
  sha256Digest,
} from "./registry.ts";

Deno.test("parseCueRegistry() routes module paths as CUE does", () => {
  const r = parseCueRegistry(
    "example.com=reg.internal/cue,localhost:5000,example.com/team=127.0.0.1:5001+secure",
  );
  assert.deepEqual(r.resolve("example.com/pets"), {
    host: "reg.internal",
    prefix: "cue",
    insecure: false,
  });
  assert.deepEqual(r.resolve("example.com/team/pets"), {
    host: "127.0.0.1:5001",
    prefix: "",
    insecure: false,
  });
  // A prefix matches whole path elements only.
  assert.deepEqual(r.resolve("example.community/x"), {
    host: "localhost:5000",
    prefix: "",
    insecure: true,
  });
  assert.deepEqual(parseCueRegistry(undefined).resolve("a.b/c"), {
    host: DEFAULT_REGISTRY,
    prefix: "",
    insecure: false,
  });
  assert.equal(parseCueRegistry("[::1]:5000").resolve("a.b/c").insecure, true);
  assert.equal(parseCueRegistry("reg.example+insecure").resolve("a.b/c").insecure, true);
  assert.equal(
    repositoryOf(parseCueRegistry("h:1/p/q").resolve("a.b/c"), "a.b/c@v0"),
    "p/q/a.b/c",
  );
  for (
    const [bad, why] of [
      ["a,,b", /empty entry/],
      ["=h", /empty module prefix/],
      ["x.com=", /names no registry/],
      ["h1,h2", /two catch-all/],
      ["h+fast", /ends in \+fast/],
      ["h/Upper", /repository prefix/],
      ["h/p:tag", /tag or digest/],
      ["not a host", /host name/],
    ] as const
  ) {
    assert.throws(
      () => parseCueRegistry(bad),
      (e: unknown) => e instanceof RegistryError && why.test(e.message),
      bad,
    );
  }
});

Deno.test("fetchModule() takes an anonymous token where the registry asks for one, and checks the zip", async () => {
  const zip = zipOf({
    "cue.mod/module.cue": 'module: "example.com/pets@v0"\n',
    "pets/p.cue": "package pets\n",
  });
  const digest = sha256Digest(zip);
  const manifest = new TextEncoder().encode(JSON.stringify({
    schemaVersion: 2,
    config: {
      mediaType: "application/vnd.cue.module.v1+json",
      digest: "sha256:" + "0".repeat(64),
      size: 2,
    },
    layers: [
      { mediaType: "application/zip", digest, size: zip.length },
      {
        mediaType: "application/vnd.cue.modulefile.v1",
        digest: "sha256:" + "1".repeat(64),
        size: 1,
      },
    ],
  }));
  const seen: string[] = [];
  let served = zip;
  const fake: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    const auth = new Headers(init?.headers).get("authorization");
    seen.push(`${url.pathname}${url.search} ${auth ?? "-"}`);
    if (url.pathname === "/token") {
      return Promise.resolve(Response.json({ token: "t0k" }));
    }
    if (auth !== "Bearer t0k") {
      return Promise.resolve(
        new Response("", {
          status: 401,
          headers: {
            "www-authenticate":
              'Bearer realm="https://auth.example/token",service="reg",scope="repository:example.com/pets:pull"',
          },
        }),
      );
    }
    if (url.pathname.endsWith("/manifests/v0.1.0")) {
      return Promise.resolve(new Response(manifest as Uint8Array<ArrayBuffer>));
    }
    if (url.pathname.endsWith(`/blobs/${digest}`)) {
      return Promise.resolve(new Response(served as Uint8Array<ArrayBuffer>));
    }
    return Promise.resolve(new Response("", { status: 404 }));
  };
  const loc = parseCueRegistry("reg.example").resolve("example.com/pets");
  const got = await fetchModule(loc, "example.com/pets@v0", "v0.1.0", fake);
  assert.equal(got.digest, digest);
  assert.equal(got.manifest, sha256Digest(manifest));
  assert.equal(got.from, "reg.example/example.com/pets:v0.1.0");
  assert.deepEqual(seen, [
    "/v2/example.com/pets/manifests/v0.1.0 -",
    "/token?service=reg&scope=repository%3Aexample.com%2Fpets%3Apull -",
    "/v2/example.com/pets/manifests/v0.1.0 Bearer t0k",
    `/v2/example.com/pets/blobs/${digest} Bearer t0k`,
  ]);
  // Other bytes than the manifest says: refused.
  served = zipOf({ "cue.mod/module.cue": 'module: "example.com/pets@v0"\n' });
  await assert.rejects(
    fetchModule(loc, "example.com/pets@v0", "v0.1.0", fake),
    (e: unknown) => e instanceof FetchError && /damaged or altered/.test(e.message),
  );
  await assert.rejects(
    fetchModule(loc, "example.com/pets@v0", "v9.9.9", fake),
    (e: unknown) => e instanceof FetchError && e.notFound,
  );
});
