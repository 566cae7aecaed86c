import { describe, expect, it } from 'vitest';
import { BpmnModdle } from 'bpmn-moddle';
import camunda from 'camunda-bpmn-moddle/resources/camunda.json';
import { asExpression, escapeXml, groupList, isBlankXml, makeTranslate, minimalProcess, processIdOf } from './xml';

const parse = async (xml: string) => {
  const moddle = new BpmnModdle({ camunda });
  return moddle.fromXML(xml);
};

describe('minimalProcess', () => {
  it('is a valid executable process holding one start event with its shape', async () => {
    const { rootElement, warnings } = await parse(minimalProcess({ key: 'leave', name: 'Leave', startName: 'Start' }));
    expect(warnings).toEqual([]);
    const root = rootElement as unknown as {
      rootElements: {
        $type: string;
        id: string;
        name: string;
        isExecutable: boolean;
        flowElements: { $type: string; name: string }[];
      }[];
      diagrams: { plane: { planeElement: { bpmnElement: { id: string } }[] } }[];
    };
    const [process] = root.rootElements;
    expect(process).toMatchObject({ $type: 'bpmn:Process', id: 'leave', name: 'Leave', isExecutable: true });
    expect(process.flowElements.map((e) => [e.$type, e.name])).toEqual([['bpmn:StartEvent', 'Start']]);
    expect(root.diagrams[0].plane.planeElement.map((e) => e.bpmnElement.id)).toEqual(['StartEvent_1']);
  });

  it('escapes names and makes a key an XML id', async () => {
    const xml = minimalProcess({ key: '1 请假', name: 'a "b" <c> & d' });
    const { rootElement, warnings } = await parse(xml);
    expect(warnings).toEqual([]);
    const process = (rootElement as unknown as { rootElements: { id: string; name: string }[] }).rootElements[0];
    expect(process).toMatchObject({ id: 'Process_1___', name: 'a "b" <c> & d' });
  });
});

describe('xml helpers', () => {
  it('escapeXml, processIdOf, isBlankXml', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(processIdOf('leave')).toBe('leave');
    expect(processIdOf('9x')).toBe('Process_9x');
    expect(isBlankXml('  \n')).toBe(true);
    expect(isBlankXml(undefined)).toBe(true);
    expect(isBlankXml('<x/>')).toBe(false);
  });

  it('asExpression wraps a bare expression and keeps a written one', () => {
    expect(asExpression(' pass ')).toBe('${pass}');
    expect(asExpression('${days > 3}')).toBe('${days > 3}');
    expect(asExpression('#{pass}')).toBe('#{pass}');
    expect(asExpression('   ')).toBeUndefined();
  });

  it('groupList keeps each role alias once, whatever the separators', () => {
    expect(groupList('hr, manager,,hr  boss，x')).toBe('hr,manager,boss,x');
    expect(groupList(' , ')).toBeUndefined();
  });

  it('makeTranslate gives the table text and fills placeholders', () => {
    const tr = makeTranslate({ 'Append {type}': '追加{type}', Delete: '删除' });
    expect(tr('Delete')).toBe('删除');
    expect(tr('Append {type}', { type: '任务' })).toBe('追加任务');
    expect(tr('Not listed {x}', { x: '1' })).toBe('Not listed 1');
    expect(tr('${taskUser} stays', {})).toBe('${taskUser} stays');
  });
});
