/**
 * The properties panel limited to what Atrium uses (docs/workflow.md "Diagram components"): the general entries
 * (name, id) and timers of the BPMN provider, plus one group with a user task's assignee, candidate roles and form
 * key, a start event's form key and a sequence flow's condition. Every other group is dropped.
 */
import { Group, TextFieldEntry, isTextFieldEntryEdited } from '@bpmn-io/properties-panel';
import { useService } from 'bpmn-js-properties-panel';
import { ATRIUM_LABELS as L } from './messages';
import { asExpression, groupList } from '../xml';

/* eslint-disable @typescript-eslint/no-explicit-any -- bpmn-js elements and services are untyped here */
type Element = any;
type Translate = (text: string) => string;

/** The BPMN provider's groups the panel keeps. */
export const KEPT_GROUPS = ['general', 'timer'];

const is = (element: Element, type: string): boolean => {
  const bo = element?.businessObject;
  return !!bo && typeof bo.$instanceOf === 'function' && bo.$instanceOf(type);
};

/** A text entry over one attribute of the element's business object. */
function attributeEntry(
  id: string,
  attr: string,
  label: string,
  help: string,
  store: (v: string) => string | undefined,
) {
  function Entry(props: { element: Element }) {
    const { element } = props;
    const modeling = useService<any>('modeling');
    const translate = useService<Translate>('translate');
    const debounce = useService<any>('debounceInput');
    return TextFieldEntry({
      element,
      id,
      label: translate(label),
      description: translate(help),
      getValue: () => element.businessObject.get(attr) ?? '',
      setValue: (value: string) => modeling.updateProperties(element, { [attr]: store(value) }),
      debounce,
    });
  }
  return Entry;
}

const trimmed = (v: string) => v?.trim() || undefined;
const AssigneeEntry = attributeEntry('atriumAssignee', 'camunda:assignee', L.assignee, L.assigneeHelp, trimmed);
const CandidateGroupsEntry = attributeEntry(
  'atriumCandidateGroups',
  'camunda:candidateGroups',
  L.candidateGroups,
  L.candidateGroupsHelp,
  groupList,
);
const FormKeyEntry = attributeEntry('atriumFormKey', 'camunda:formKey', L.formKey, L.formKeyHelp, trimmed);

function ConditionEntry(props: { element: Element }) {
  const { element } = props;
  const modeling = useService<any>('modeling');
  const bpmnFactory = useService<any>('bpmnFactory');
  const translate = useService<Translate>('translate');
  const debounce = useService<any>('debounceInput');
  return TextFieldEntry({
    element,
    id: 'atriumCondition',
    label: translate(L.condition),
    description: translate(L.conditionHelp),
    getValue: () => element.businessObject.conditionExpression?.body ?? '',
    setValue: (value: string) => {
      const body = asExpression(value);
      modeling.updateProperties(element, {
        conditionExpression: body ? bpmnFactory.create('bpmn:FormalExpression', { body }) : undefined,
      });
    },
    debounce,
  });
}

/** True when a sequence flow may carry a condition: it leaves an exclusive or inclusive gateway or an activity. */
export function mayHaveCondition(element: Element): boolean {
  if (!is(element, 'bpmn:SequenceFlow')) return false;
  const source = element.source ?? element.businessObject.sourceRef;
  const src = source?.businessObject ? source : { businessObject: source };
  if (src.businessObject?.default === element.businessObject) return false;
  return is(src, 'bpmn:ExclusiveGateway') || is(src, 'bpmn:InclusiveGateway') || is(src, 'bpmn:Activity');
}

/** The Atrium entries an element gets (ids as the panel needs them). */
export function atriumEntryIds(element: Element): string[] {
  if (is(element, 'bpmn:UserTask')) return ['atriumAssignee', 'atriumCandidateGroups', 'atriumFormKey'];
  if (is(element, 'bpmn:StartEvent') && !is({ businessObject: element.businessObject.$parent }, 'bpmn:SubProcess'))
    return ['atriumFormKey'];
  if (mayHaveCondition(element)) return ['atriumCondition'];
  return [];
}

const COMPONENTS: Record<string, unknown> = {
  atriumAssignee: AssigneeEntry,
  atriumCandidateGroups: CandidateGroupsEntry,
  atriumFormKey: FormKeyEntry,
  atriumCondition: ConditionEntry,
};

class AtriumPropertiesProvider {
  static $inject = ['propertiesPanel', 'translate'];
  private readonly translate: Translate;
  constructor(propertiesPanel: any, translate: Translate) {
    // Below the BPMN provider's priority, so this one sees its groups and runs last.
    propertiesPanel.registerProvider(100, this);
    this.translate = translate;
  }
  getGroups(element: Element) {
    return (groups: { id: string }[]) => {
      const kept: unknown[] = groups.filter((g) => KEPT_GROUPS.includes(g.id));
      const entries = atriumEntryIds(element).map((id) => ({
        id,
        element,
        component: COMPONENTS[id],
        isEdited: isTextFieldEntryEdited,
      }));
      if (entries.length) kept.push({ id: 'atrium', label: this.translate(L.group), component: Group, entries });
      return kept;
    };
  }
}

/** The bpmn-js module registering the provider. */
export const AtriumPropertiesModule = {
  __init__: ['atriumPropertiesProvider'],
  atriumPropertiesProvider: ['type', AtriumPropertiesProvider],
};
