/** Props of the diagram components (docs/workflow.md "Diagram components"). */

export interface FlowModelerProps {
  /** BPMN 2.0 XML; empty or missing starts a new diagram from `minimalProcess()`. */
  xml?: string | null;
  /** Called with the whole XML after every change of the diagram. */
  onChange?: (xml: string) => void;
  /** Shows a save button (and Ctrl+S) handing over the whole XML. */
  onSave?: (xml: string) => void;
  /** Shows the diagram only (the viewer, no palette and no panel). */
  readOnly?: boolean;
  /** Height of the component (CSS); 600 px by default. */
  height?: number | string;
}

export interface FlowViewerProps {
  /** BPMN 2.0 XML. */
  xml: string;
  /** Ids of the elements (steps and flows) already passed: marked done. */
  doneIds?: readonly string[];
  /** Ids of the elements waiting now: marked current. */
  currentIds?: readonly string[];
  /** Height of the component (CSS); 400 px by default. The diagram is fitted to it and to the width. */
  height?: number | string;
}
