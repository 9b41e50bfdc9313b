/**
 * The feature matrix's world on the real hashicorp/aws 5.100.0 (from the
 * Terraform mirror) against moto_server, on SQLite state (cells.ts): every
 * row of `_scenario.ts` through scripts/pravo and the MCP server through the
 * SDK's client. PostgreSQL's column is the built-in world's on PostgreSQL:
 * the state store does not depend on the provider, and each AWS world costs
 * minutes of CI.
 *
 * @module
 */

import {
  AWS_VERSION,
  awsCli,
  awsProviderPath,
  mirrorDir,
  moto as motoServer,
} from "../plugin/_aws.ts";
import { awsProviderCue } from "../plugin/_roots.ts";
import { runWorld } from "./_scenario.ts";
import { makeWorld } from "./_world.ts";

awsProviderPath(); // fails the file, naming it, when the provider is missing

/** `a` an S3 bucket, `b` its versioning; the output `first` is the bucket's name. */
function awsMain(moto: string, suffix: string): string {
  return `package matrix

import aws "pravo.dev/providers/hashicorp/aws"

protect: *false | bool @tag(protect,type=bool)

${awsProviderCue(moto, "$aws", ["s3", "sts"])}
a: $aws.#Resource.aws_s3_bucket & {
	bucket: "pravo-matrix-${suffix}"
	lifecycle: prevent_destroy: protect
}
b: $aws.#Resource.aws_s3_bucket_versioning & {
	bucket: a.id
	versioning_configuration: [{status: "Enabled"}]
}

outputs: first: a.id
`;
}

async function awsWorld(worldId: string) {
  const moto = await motoServer();
  const suffix = `${worldId}-${crypto.randomUUID().slice(0, 8)}`;
  return await makeWorld({
    worldId,
    files: {
      "main.cue": awsMain(moto.url, suffix),
      "pravo.jsonc": JSON.stringify({
        providers: { "hashicorp/aws": AWS_VERSION },
        provider_mirrors: [mirrorDir()],
      }),
    },
    typeA: "aws_s3_bucket",
    providerA: "hashicorp/aws",
    attrA: "id",
    importId: (attrs) => String(attrs.id),
    async driftA(_root, attrs) {
      // A tag added behind pravo's back, which the configuration does not have.
      await awsCli(moto.url, [
        "s3api",
        "put-bucket-tagging",
        "--bucket",
        String(attrs.id),
        "--tagging",
        "TagSet=[{Key=drift,Value=yes}]",
      ]);
    },
  });
}

Deno.test("feature matrix: the AWS provider on moto, SQLite state", async (t) => {
  const w = await awsWorld("aws-sqlite");
  try {
    await runWorld(t, w);
  } finally {
    await w.cleanup();
  }
});
