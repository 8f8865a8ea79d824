import { type SqlTx, sql } from '../../src/db/sql';

/** A node of an `explain (analyze, format json)` plan, with the fields the cost tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  /** Rows per loop (averaged over the loops). */
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Every node of a plan tree, depth first. */
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * Runs `text` (`?` bindings) under `explain analyze` in `tx`, which it really executes: call it in a
 * transaction that is rolled back. Answers the plan's reads of `table`: every scan of it, the
 * statement's own insert or update into it left out.
 */
export async function scansOf(
  tx: SqlTx,
  text: string,
  params: unknown[],
  table: string,
): Promise<PlanNode[]> {
  const [explained] = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    tx,
    `explain (analyze, format json) ${text}`,
    params,
  );
  return nodesOf(explained!['QUERY PLAN'][0].Plan).filter(
    (n) => n['Relation Name'] === table && n['Node Type'] !== 'ModifyTable',
  );
}
