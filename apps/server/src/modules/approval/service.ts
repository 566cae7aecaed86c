import { and, eq, sql } from 'drizzle-orm';
import { CONFIG_DEFAULT_REGION } from '@atrium/contract/resources/system/sysconfigregion';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { AppError } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { approvalTexts as texts } from './messages.ts';
import { approvalTable } from './table.ts';
import { sysConfigRegion } from '../sys-config-region/index.ts';

/**
 * Approvals (docs/clients.md "Approvals"): a business opens one with `openApproval` in its own transaction; a decision
 * (`decideApproval`) applies the business's effect, registered by its module, in the decision's transaction.
 */
export type ApprovalRow = typeof approvalTable.$inferSelect;
export type Decision = { pass: boolean; opinion: string | null; requestId: string };
export type ApprovalEffect = (tx: Db, auth: AuthContext, approval: ApprovalRow, decision: Decision) => Promise<void>;

declare module '../../platform/services.ts' {
  interface Registry {
    /** The app's approval effects by business type (docs/server.md "Registries"). */
    approvalEffects?: Map<string, ApprovalEffect>;
  }
}

/** A module names what a decision on its applications does (client → account; sub-domain → approved). */
export function registerApprovalEffect(s: Services, referType: string, effect: ApprovalEffect): void {
  (s.registry.approvalEffects ??= new Map()).set(referType, effect);
}

export type Application = {
  referType: string;
  referId: string;
  title: string;
  applicantName?: string | null;
  applicantPhone?: string | null;
  regionCode?: string | null;
  /** Who applied, when logged in (a client account); none for a public registration. */
  userId?: string | null;
};

/** Opens a pending application; a second pending one for the same object is refused (409) by the database. */
export async function openApproval(tx: Db, tenantId: string, a: Application, now: Date): Promise<string> {
  const id = newId();
  try {
    await tx.execute(sql`savepoint open_approval`);
    await tx.insert(approvalTable).values({
      id,
      tenantId,
      referType: a.referType,
      referId: a.referId,
      title: a.title.slice(0, 200),
      applicantName: a.applicantName?.slice(0, 50) ?? null,
      applicantPhone: a.applicantPhone ?? null,
      regionCode: a.regionCode ?? null,
      submitTime: now,
      status: 0,
      createUser: a.userId ?? null,
      createTime: now,
      updateTime: now,
    });
    await tx.execute(sql`release savepoint open_approval`);
  } catch (err) {
    await tx.execute(sql`rollback to savepoint open_approval`);
    if ((err as { code?: string; cause?: { code?: string } }).code === '23505') throw alreadyPending();
    if ((err as { cause?: { code?: string } }).cause?.code === '23505') throw alreadyPending();
    throw err;
  }
  return id;
}
const alreadyPending = () => new AppError(409, texts.alreadyPending);

/** Withdraws the pending application of an object (the object was removed or replaced). */
export async function withdrawPending(tx: Db, tenantId: string, referType: string, referId: string, now: Date) {
  await tx
    .update(approvalTable)
    .set({ status: 3, updateTime: now, version: sql`${approvalTable.version} + 1` })
    .where(
      and(
        eq(approvalTable.tenantId, tenantId),
        eq(approvalTable.referType, referType),
        eq(approvalTable.referId, referId),
        eq(approvalTable.status, 0),
        eq(approvalTable.isDeleted, 0),
      ),
    );
}

/** The tenant setting that lets the creator of an application decide it: config type `approval`, key below. */
export const APPROVAL_CONFIG_TYPE = 'approval';
export const SELF_DECISION_KEY = 'allowSelfDecision';

/**
 * Whether the tenant lets an application's creator decide it: its default config (region '00', docs/system-api.md
 * "Config by region") of type `approval` says `allowSelfDecision: true`. Anything else — no entry, false, text —
 * keeps the separation of duties on.
 */
export async function selfDecisionAllowed(tx: Db, tenantId: string): Promise<boolean> {
  const [row] = await tx
    .select({ config: sysConfigRegion.config })
    .from(sysConfigRegion)
    .where(
      and(
        eq(sysConfigRegion.tenantId, tenantId),
        eq(sysConfigRegion.regionCode, CONFIG_DEFAULT_REGION),
        eq(sysConfigRegion.sysType, APPROVAL_CONFIG_TYPE),
        eq(sysConfigRegion.isDeleted, 0),
      ),
    )
    .limit(1);
  return row?.config?.[SELF_DECISION_KEY] === true;
}

/**
 * Decides one application, locked by the caller (`FOR UPDATE`): a decided one is a 409 — of two staff deciding at
 * once, the second waits for the first's lock and then finds it decided. Separation of duties: the user who created
 * the application (staff entering a client) cannot decide it (403) unless the tenant allows it
 * (`selfDecisionAllowed`). The effect runs in the same transaction.
 */
export async function decideApproval(
  s: Services,
  tx: Db,
  auth: AuthContext & { realName?: string | null },
  row: ApprovalRow,
  decision: Decision,
  now: Date,
): Promise<void> {
  if (row.status !== 0) throw new AppError(409, texts.notPending);
  if (row.createUser && row.createUser === auth.userId && !(await selfDecisionAllowed(tx, auth.tenantId)))
    throw new AppError(403, texts.ownApplication);
  if (!decision.pass && !decision.opinion?.trim()) throw new AppError(400, texts.opinionRequired);
  const effect = s.registry.approvalEffects?.get(row.referType);
  if (!effect) throw new AppError(400, texts.noEffect);
  await tx
    .update(approvalTable)
    .set({
      status: decision.pass ? 1 : 2,
      approverId: auth.userId,
      approverName: (auth.realName ?? auth.account).slice(0, 50),
      approveTime: now,
      opinion: decision.opinion?.trim().slice(0, 500) || null,
      updateUser: auth.userId,
      updateTime: now,
      version: sql`${approvalTable.version} + 1`,
    })
    .where(and(eq(approvalTable.id, row.id), eq(approvalTable.tenantId, auth.tenantId)));
  await effect(tx, auth, { ...row, status: decision.pass ? 1 : 2 }, decision);
}
