import { describe, expect, it, vi } from 'vitest';
import { BpmnModdle } from 'bpmn-moddle';
import camunda from 'camunda-bpmn-moddle/resources/camunda.json';
// The panel's own components are not drawn here (they need a running modeler); the test checks which entries and
// groups Atrium gives each element.
vi.mock('bpmn-js-properties-panel', () => ({ useService: vi.fn() }));
vi.mock('@bpmn-io/properties-panel', () => ({
  Group: 'Group',
  TextFieldEntry: vi.fn(),
  isTextFieldEntryEdited: vi.fn(),
}));

import { AtriumPropertiesModule, atriumEntryIds, KEPT_GROUPS } from './atriumProperties';
import { ATRIUM_LABELS, bpmnEn, bpmnZh } from './messages';

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="x">
  <bpmn:process id="p" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:userTask id="manager" camunda:assignee="\${taskUser}" />
    <bpmn:serviceTask id="svc" />
    <bpmn:exclusiveGateway id="g" default="toEnd" />
    <bpmn:parallelGateway id="par" />
    <bpmn:endEvent id="end" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="manager" />
    <bpmn:sequenceFlow id="f2" sourceRef="manager" targetRef="g" />
    <bpmn:sequenceFlow id="pass" sourceRef="g" targetRef="par" />
    <bpmn:sequenceFlow id="toEnd" sourceRef="g" targetRef="end" />
    <bpmn:sequenceFlow id="fromPar" sourceRef="par" targetRef="end" />
    <bpmn:subProcess id="sub"><bpmn:startEvent id="subStart" /></bpmn:subProcess>
  </bpmn:process>
</bpmn:definitions>`;

async function elements() {
  const moddle = new BpmnModdle({ camunda });
  const { elementsById } = await moddle.fromXML(XML);
  return (id: string) => {
    const businessObject = elementsById[id] as { sourceRef?: unknown };
    return {
      id,
      businessObject,
      source: businessObject.sourceRef ? { businessObject: businessObject.sourceRef } : undefined,
    };
  };
}

describe('the Atrium properties', () => {
  it('gives each element only the entries Atrium uses', async () => {
    const el = await elements();
    expect(atriumEntryIds(el('manager'))).toEqual(['atriumAssignee', 'atriumCandidateGroups', 'atriumFormKey']);
    expect(atriumEntryIds(el('start'))).toEqual(['atriumFormKey']);
    expect(atriumEntryIds(el('subStart'))).toEqual([]);
    expect(atriumEntryIds(el('svc'))).toEqual([]);
    expect(atriumEntryIds(el('g'))).toEqual([]);
    // conditions: from an activity or an exclusive gateway, not the gateway's default flow nor a parallel gateway's
    expect(atriumEntryIds(el('f2'))).toEqual(['atriumCondition']);
    expect(atriumEntryIds(el('pass'))).toEqual(['atriumCondition']);
    expect(atriumEntryIds(el('toEnd'))).toEqual([]);
    expect(atriumEntryIds(el('fromPar'))).toEqual([]);
    expect(atriumEntryIds(el('f1'))).toEqual([]);
  });

  it('keeps the general and timer groups of the BPMN provider and drops the others', async () => {
    const el = await elements();
    type Groups = (groups: { id: string }[]) => { id: string; label?: string; entries?: { id: string }[] }[];
    type ProviderT = { getGroups(e: unknown): Groups };
    const Provider = AtriumPropertiesModule.atriumPropertiesProvider[1] as unknown as new (
      ...a: unknown[]
    ) => ProviderT;
    const provider = new Provider({ registerProvider: () => undefined }, (s: string) => bpmnZh[s] ?? s);
    const groups = provider.getGroups(el('manager'))(
      ['general', 'documentation', 'multiInstance', 'timer', 'extensionProperties'].map((id) => ({ id })),
    );
    expect(groups.map((g) => g.id)).toEqual(['general', 'timer', 'atrium']);
    expect(KEPT_GROUPS).toEqual(['general', 'timer']);
    const atrium = groups[2];
    expect(atrium.label).toBe('流程设置');
    expect(atrium.entries!.map((e) => e.id)).toEqual(['atriumAssignee', 'atriumCandidateGroups', 'atriumFormKey']);
    expect(
      provider!
        .getGroups(el('svc'))([{ id: 'general' }, { id: 'documentation' }])
        .map((g) => g.id),
    ).toEqual(['general']);
  });
});

describe('the zh texts of bpmn-js', () => {
  it('has every Atrium label, in Chinese', () => {
    for (const label of Object.values(ATRIUM_LABELS)) {
      expect(bpmnZh[label], label).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('keeps the placeholders of each text', () => {
    const holes = (s: string) => (s.match(/\{[^}]*\}/g) ?? []).sort();
    for (const [en, zh] of Object.entries({ ...bpmnZh })) expect(holes(zh), en).toEqual(holes(en));
    for (const [en, text] of Object.entries(bpmnEn)) expect(holes(text), en).toEqual(holes(en));
  });

  it('translates the palette and the panel texts a user sees first', () => {
    for (const key of ['Create start event', 'Create task', 'Append task', 'User task', 'General', 'Name', 'ID'])
      expect(bpmnZh[key], key).toMatch(/[\u4e00-\u9fff]/);
  });
});
