/**
 * Terraform expressions to CUE expressions (CUE v0.4.3, as pravo evaluates
 * it), from the syntax tree HashiCorp's parser gives (`hcl.ts`).
 *
 * References keep their Terraform spelling, since a converted root nests its
 * nodes as Terraform addresses them (`aws_s3_bucket.logs.arn`,
 * `data.aws_iam_policy_document.p.json`, `module.vpc.vpc_id`, `var.env`,
 * `local.name`); inside a module's definition the inputs are `#var` and the
 * locals `#local`. An instance of a `count` is `."0"` (`["\(i)"]`), as the
 * converted root keys them. Templates become interpolations
 * (`expr_template.ts`), conditionals `[if c {a}, b][0]`, `for` expressions
 * and splats comprehensions (`expr_nodes.ts`), functions CUE builtins,
 * comprehensions or the contents of files read at convert time
 * (`expr_functions.ts`, `expr_files.ts`). What has no CUE form is a
 * diagnostic at its file, line and column, and `_|_` stands in its place
 * (nothing is written when there is an error).
 *
 * @module
 */

import { error } from "../diag/diag.ts";
import { type AstNode, expressionAst } from "./hcl.ts";
import { atom, BOTTOM, Converter, type Cue, type ExprContext, type Scope } from "./expr_base.ts";
import { convertNode } from "./expr_nodes.ts";

export type { Cue, Expansion, ExprContext, Scope } from "./expr_base.ts";

/**
 * Converts the expression `src`, found at `offset` in `ctx.file`, in
 * `scope`. Errors are gathered in `ctx.diags`.
 */
export async function convertExpression(
  src: string,
  offset: number,
  scope: Scope,
  ctx: ExprContext,
): Promise<Cue> {
  let ast: AstNode;
  try {
    // A heredoc's closing marker needs the newline that ends its line.
    ast = await expressionAst(ctx.file.name, src + "\n");
  } catch (e) {
    const at = ctx.file.lines.at(offset);
    ctx.diags.push(
      error(
        "Invalid expression",
        `HCL cannot read this expression: ${
          (e as Error).message
        }. Correct it in the .tf file, then convert again.`,
        { range: { file: ctx.file.name, line: at.line, column: at.column } },
      ),
    );
    return atom(BOTTOM);
  }
  return await convertNode(new Converter(src, offset, ctx), ast, scope);
}

/** The syntax tree of an expression, for the blocks' own reading (`count`, `for_each`). */
export { expressionAst };
