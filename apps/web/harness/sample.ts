/** A leave-like process for the harness page (docs/workflow.md "Diagram components"). */
const shape = (id: string, x: number, y: number, w: number, h: number) =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"><dc:Bounds x="${x}" y="${y}" width="${w}" height="${h}" /></bpmndi:BPMNShape>`;
const edge = (id: string, points: [number, number][]) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}">${points.map(([x, y]) => `<di:waypoint x="${x}" y="${y}" />`).join('')}</bpmndi:BPMNEdge>`;

export const sampleXml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_leave" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="leave" name="Leave" isExecutable="true">
    <bpmn:startEvent id="start" name="Apply" camunda:formKey="leave" />
    <bpmn:userTask id="manager" name="Manager approval" camunda:assignee="\${taskUser}" camunda:formKey="leave-handle" />
    <bpmn:exclusiveGateway id="g1" />
    <bpmn:userTask id="hr" name="HR approval" camunda:candidateGroups="hr" camunda:formKey="leave-handle" />
    <bpmn:userTask id="adjust" name="Adjust request" camunda:assignee="\${applyUser}" />
    <bpmn:endEvent id="end" name="End" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="manager" />
    <bpmn:sequenceFlow id="f2" sourceRef="manager" targetRef="g1" />
    <bpmn:sequenceFlow id="f3" name="pass" sourceRef="g1" targetRef="hr"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\${pass}</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="f4" name="reject" sourceRef="g1" targetRef="adjust"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\${!pass}</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="f5" sourceRef="adjust" targetRef="manager" />
    <bpmn:sequenceFlow id="f6" sourceRef="hr" targetRef="end" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="d1">
    <bpmndi:BPMNPlane id="p1" bpmnElement="leave">
      ${shape('start', 152, 102, 36, 36)}
      ${shape('manager', 240, 80, 100, 80)}
      ${shape('g1', 395, 95, 50, 50)}
      ${shape('hr', 500, 80, 100, 80)}
      ${shape('adjust', 370, 220, 100, 80)}
      ${shape('end', 662, 102, 36, 36)}
      ${edge('f1', [
        [188, 120],
        [240, 120],
      ])}
      ${edge('f2', [
        [340, 120],
        [395, 120],
      ])}
      ${edge('f3', [
        [445, 120],
        [500, 120],
      ])}
      ${edge('f4', [
        [420, 145],
        [420, 220],
      ])}
      ${edge('f5', [
        [370, 260],
        [290, 260],
        [290, 160],
      ])}
      ${edge('f6', [
        [600, 120],
        [662, 120],
      ])}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;
