// The workflow engine's test fixture (test/flow-engine.test.ts and its kill -9 driver): the leave-like model, a
// model with a script, and a tenant with an applicant, a manager, two HR users and an outsider.
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { newId } from '../../src/db/ids.ts';
import { role, tenant, user, userRole } from '../../src/db/schema/index.ts';
import { deployDefinition, storeDefinition } from '../../src/modules/flow/engine/definitions.ts';
import type { FlowCaller } from '../../src/modules/flow/engine/service.ts';
import { withTenant } from '../../src/platform/tenant-db.ts';

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const cond = (body: string) =>
  `<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${body}</bpmn:conditionExpression>`;

/**
 * start → the manager (`${taskUser}`) → pass: HR (candidate group hr) → end; reject: the applicant (`${applyUser}`),
 * who resubmits (pass: back to the manager) or cancels (reject: end "cancelled").
 */
export const LEAVE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" ${XSI} id="leaveDefs" targetNamespace="http://atrium">
  <bpmn:process id="leave" name="Leave" isExecutable="true">
    <bpmn:startEvent id="start" name="Apply" />
    <bpmn:sequenceFlow id="toManager" sourceRef="start" targetRef="manager" />
    <bpmn:userTask id="manager" name="Manager approval" camunda:assignee="\${taskUser}" camunda:formKey="leave-handle" />
    <bpmn:sequenceFlow id="toDecision" sourceRef="manager" targetRef="decision" />
    <bpmn:exclusiveGateway id="decision" name="Passed?" />
    <bpmn:sequenceFlow id="toHr" sourceRef="decision" targetRef="hr">${cond('${pass}')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="toApplicant" sourceRef="decision" targetRef="applicant">${cond('${!pass}')}</bpmn:sequenceFlow>
    <bpmn:userTask id="hr" name="HR approval" camunda:candidateGroups="hr" />
    <bpmn:sequenceFlow id="toEnd" sourceRef="hr" targetRef="end" />
    <bpmn:endEvent id="end" name="Approved" />
    <bpmn:userTask id="applicant" name="Adjust the request" camunda:assignee="\${applyUser}" />
    <bpmn:sequenceFlow id="toResubmit" sourceRef="applicant" targetRef="resubmit" />
    <bpmn:exclusiveGateway id="resubmit" name="Resubmit?" />
    <bpmn:sequenceFlow id="back" sourceRef="resubmit" targetRef="manager">${cond('${pass}')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="cancel" sourceRef="resubmit" targetRef="cancelled">${cond('${!pass}')}</bpmn:sequenceFlow>
    <bpmn:endEvent id="cancelled" name="Cancelled" />
  </bpmn:process>
</bpmn:definitions>`;

/** A model whose script task (and script condition) would write `file` if anything ran it. */
export const scriptXml = (file: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" ${XSI} id="evilDefs" targetNamespace="http://atrium">
  <bpmn:process id="evil" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="write" />
    <bpmn:scriptTask id="write" name="Write a file" scriptFormat="javascript"><bpmn:script>require('fs').writeFileSync(${JSON.stringify(file)}, 'ran'); next();</bpmn:script></bpmn:scriptTask>
    <bpmn:sequenceFlow id="f2" sourceRef="write" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

/** A model whose only flow has a JavaScript condition that would write `file`. */
export const scriptConditionXml = (file: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" ${XSI} id="evilDefs2" targetNamespace="http://atrium">
  <bpmn:process id="evilCondition" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="end"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" language="javascript">next(null, require('fs').writeFileSync(${JSON.stringify(file)}, 'ran'))</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

export type FlowTenant = {
  tenantId: string;
  hrRoleId: string;
  applicant: FlowCaller;
  manager: FlowCaller;
  hr1: FlowCaller;
  hr2: FlowCaller;
  outsider: FlowCaller;
};

/** A tenant with the role `hr` and five users (written directly, as the platform's own connection). */
export async function flowTenant(db: Db, tenantId: string): Promise<FlowTenant> {
  const existing = await db.select().from(tenant).where(eq(tenant.tenantId, tenantId));
  if (!existing.length) await db.insert(tenant).values({ id: newId(), tenantId, tenantName: `T${tenantId}` });
  const hrRoleId = newId();
  const staffRoleId = newId();
  await db.insert(role).values([
    { id: hrRoleId, tenantId, roleName: 'HR', roleAlias: 'hr' },
    { id: staffRoleId, tenantId, roleName: 'Staff', roleAlias: 'staff' },
  ]);
  const person = async (account: string, roleId: string): Promise<FlowCaller> => {
    const userId = newId();
    await db.insert(user).values({ id: userId, tenantId, account, password: 'x', realName: account });
    await db.insert(userRole).values({ userId, roleId, tenantId });
    return { tenantId, userId, roleIds: [roleId] };
  };
  return {
    tenantId,
    hrRoleId,
    applicant: await person('applicant', staffRoleId),
    manager: await person('manager', staffRoleId),
    hr1: await person('hr1', hrRoleId),
    hr2: await person('hr2', hrRoleId),
    outsider: await person('outsider', staffRoleId),
  };
}

/** Stores `xml` as `key` without the model checks (a model that slipped past them); answers the definition id. */
export async function storeUnchecked(db: Db, tenantId: string, key: string, xml: string): Promise<string> {
  return (await withTenant(db, tenantId, (tx) => storeDefinition(tx, tenantId, { key, name: key, xml }))).id;
}

/** Deploys `xml` as `key` in the tenant (checked as every deployment is); answers the definition id. */
export async function deploy(db: Db, tenantId: string, key: string, xml: string): Promise<string> {
  return (await withTenant(db, tenantId, (tx) => deployDefinition(tx, tenantId, { key, name: key, xml }))).id;
}

/** The manager's task; if it waits longer than PT1S, it is escalated to the applicant. */
export const TIMER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="timerDefs" targetNamespace="http://atrium">
  <bpmn:process id="late" name="Late" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="task" />
    <bpmn:userTask id="task" name="Approve" camunda:assignee="\${taskUser}" />
    <bpmn:boundaryEvent id="tooLate" name="Too late" attachedToRef="task">
      <bpmn:timerEventDefinition><bpmn:timeDuration>PT1S</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="task" targetRef="end" />
    <bpmn:sequenceFlow id="f3" sourceRef="tooLate" targetRef="escalated" />
    <bpmn:userTask id="escalated" name="Escalated" camunda:assignee="\${applyUser}" />
    <bpmn:sequenceFlow id="f4" sourceRef="escalated" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
