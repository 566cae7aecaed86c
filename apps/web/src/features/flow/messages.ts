/**
 * Texts of the workflow diagram components (i18n keys under `flowDiagram`, docs/workflow.md "Diagram components"),
 * in both languages.
 */
export const flowDiagramTexts = {
  zh: {
    loading: '正在加载流程图…',
    importFailed: '流程图无法打开',
    save: '保存',
    undo: '撤销',
    redo: '重做',
    fit: '适应画布',
    zoomIn: '放大',
    zoomOut: '缩小',
    legendDone: '已完成',
    legendCurrent: '当前环节',
    newProcess: '新流程',
    start: '开始',
  },
  en: {
    loading: 'Loading the diagram…',
    importFailed: 'The diagram cannot be opened',
    save: 'Save',
    undo: 'Undo',
    redo: 'Redo',
    fit: 'Fit to view',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    legendDone: 'Done',
    legendCurrent: 'Current step',
    newProcess: 'New process',
    start: 'Start',
  },
};
