/**
 * The engine's expressions (docs/workflow.md "Safe expressions"): one evaluator for the checks at deploy and for the
 * running engine — `flow/bpmn/expression.ts`. A text without `${…}` or `#{…}` is itself (a fixed assignee, a role
 * alias); a whole expression is its value. Nothing is called and no property outside the variables' own is read.
 */
import { evaluate as evaluateSafe, ExpressionError, hasExpression } from '../bpmn/expression.ts';

export { ExpressionError, hasExpression };

export function evaluate(text: string, variables: Record<string, unknown>): unknown {
  return hasExpression(text) ? evaluateSafe(text, variables) : text;
}
