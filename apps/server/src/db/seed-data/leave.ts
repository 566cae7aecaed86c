/**
 * The leave process as seeded in every tenant (docs/workflow.md "The leave process"; deployed by modules/leave/seed.ts): 开始 (the leave form) → 经理审批 by
 * the approver picked on the form (`${taskUser}`) → passed: 人事审批 (candidate role `hr`) → passed: 结束. A rejection
 * at either step goes to 调整申请 of the applicant (`${applyUser}`), who resubmits (pass: back to 经理审批) or cancels
 * (reject: 已撤销). The form keys are the console's routes (it appends the ids). The leave module's effects know the
 * applicant's step by its id, `adjust`: a model deployed later under the key `leave` keeps that id.
 */
export const leaveProcessSeed = {
  /** The definition key (and the process id). */
  key: 'leave',
  /** The `flow` dictionary's 请假流程. */
  category: '1',
  /** The definition's name (stored data, like the seeded role names). */
  name: '请假流程',
  /** The applicant's step, where a resubmit carries the adjusted fields (modules/leave knows it by this id). */
  adjustTask: 'adjust',
} as const;
const { key: LEAVE_KEY, name: LEAVE_NAME, adjustTask: ADJUST_TASK } = leaveProcessSeed;

const cond = (body: string) =>
  `<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${body}</bpmn:conditionExpression>`;
const shape = (id: string, x: number, y: number, w: number, h: number, marker = false) =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"${marker ? ' isMarkerVisible="true"' : ''}><dc:Bounds x="${x}" y="${y}" width="${w}" height="${h}" /></bpmndi:BPMNShape>`;
const edge = (id: string, points: [number, number][]) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}">${points.map(([x, y]) => `<di:waypoint x="${x}" y="${y}" />`).join('')}</bpmndi:BPMNEdge>`;

const FORM = '/work/process/leave/form';
const HANDLE = '/work/process/leave/handle';

export const leaveBpmn = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="leaveDefinitions" targetNamespace="http://atrium/flow">
  <bpmn:process id="${LEAVE_KEY}" name="${LEAVE_NAME}" isExecutable="true">
    <bpmn:startEvent id="start" name="开始" camunda:formKey="${FORM}" />
    <bpmn:sequenceFlow id="toApprove" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve" name="经理审批" camunda:assignee="\${taskUser}" camunda:formKey="${HANDLE}" />
    <bpmn:sequenceFlow id="toApproveResult" sourceRef="approve" targetRef="approveResult" />
    <bpmn:exclusiveGateway id="approveResult" name="经理审批结果" />
    <bpmn:sequenceFlow id="approvePass" name="通过" sourceRef="approveResult" targetRef="hrApprove">${cond('${pass}')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="approveReject" name="驳回" sourceRef="approveResult" targetRef="${ADJUST_TASK}">${cond('${!pass}')}</bpmn:sequenceFlow>
    <bpmn:userTask id="hrApprove" name="人事审批" camunda:candidateGroups="hr" camunda:formKey="${HANDLE}" />
    <bpmn:sequenceFlow id="toHrResult" sourceRef="hrApprove" targetRef="hrResult" />
    <bpmn:exclusiveGateway id="hrResult" name="人事审批结果" />
    <bpmn:sequenceFlow id="hrPass" name="通过" sourceRef="hrResult" targetRef="end">${cond('${pass}')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="hrReject" name="驳回" sourceRef="hrResult" targetRef="${ADJUST_TASK}">${cond('${!pass}')}</bpmn:sequenceFlow>
    <bpmn:endEvent id="end" name="结束" />
    <bpmn:userTask id="${ADJUST_TASK}" name="调整申请" camunda:assignee="\${applyUser}" camunda:formKey="${HANDLE}" />
    <bpmn:sequenceFlow id="toResubmit" sourceRef="${ADJUST_TASK}" targetRef="resubmit" />
    <bpmn:exclusiveGateway id="resubmit" name="重新提交？" />
    <bpmn:sequenceFlow id="resubmitPass" name="重新提交" sourceRef="resubmit" targetRef="approve">${cond('${pass}')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="resubmitCancel" name="撤销" sourceRef="resubmit" targetRef="cancelled">${cond('${!pass}')}</bpmn:sequenceFlow>
    <bpmn:endEvent id="cancelled" name="已撤销" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="leaveDiagram">
    <bpmndi:BPMNPlane id="leavePlane" bpmnElement="${LEAVE_KEY}">
      ${shape('start', 152, 202, 36, 36)}
      ${shape('approve', 240, 180, 100, 80)}
      ${shape('approveResult', 395, 195, 50, 50, true)}
      ${shape('hrApprove', 500, 180, 100, 80)}
      ${shape('hrResult', 655, 195, 50, 50, true)}
      ${shape('end', 762, 202, 36, 36)}
      ${shape(ADJUST_TASK, 500, 330, 100, 80)}
      ${shape('resubmit', 265, 345, 50, 50, true)}
      ${shape('cancelled', 272, 462, 36, 36)}
      ${edge('toApprove', [
        [188, 220],
        [240, 220],
      ])}
      ${edge('toApproveResult', [
        [340, 220],
        [395, 220],
      ])}
      ${edge('approvePass', [
        [445, 220],
        [500, 220],
      ])}
      ${edge('approveReject', [
        [420, 245],
        [420, 300],
        [530, 300],
        [530, 330],
      ])}
      ${edge('toHrResult', [
        [600, 220],
        [655, 220],
      ])}
      ${edge('hrPass', [
        [705, 220],
        [762, 220],
      ])}
      ${edge('hrReject', [
        [680, 245],
        [680, 370],
        [600, 370],
      ])}
      ${edge('toResubmit', [
        [500, 370],
        [315, 370],
      ])}
      ${edge('resubmitPass', [
        [290, 345],
        [290, 260],
      ])}
      ${edge('resubmitCancel', [
        [290, 395],
        [290, 462],
      ])}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;
