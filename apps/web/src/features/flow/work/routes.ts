/**
 * The screens' addresses: the server answers a category's route prefixes (flow.schemas.ts `formRoute`,
 * `detailRoute`) and the console appends the ids (docs/workflow.md "Screens: my work and leave").
 */

const join = (base: string, ids: (string | null | undefined)[]) =>
  `${base.replace(/\/+$/, '')}/${ids.map((id) => encodeURIComponent(id ?? '')).join('/')}`;

/** A start form: `${formRoute}/${processDefinitionId}`. */
export const startFormPath = (formRoute: string | null, definitionId: string) =>
  formRoute ? join(formRoute, [definitionId]) : null;

/** A task's handling screen: `${formRoute}/${taskId}/${processInstanceId}/${businessId}`. */
export const handlePath = (t: {
  formRoute: string | null;
  taskId: string;
  processInstanceId: string;
  businessId: string | null;
}) => (t.formRoute && t.businessId ? join(t.formRoute, [t.taskId, t.processInstanceId, t.businessId]) : null);

/** An instance's detail: `${detailRoute}/${processInstanceId}/${businessId}`. */
export const detailPath = (i: { detailRoute: string | null; processInstanceId: string; businessId: string | null }) =>
  i.detailRoute && i.businessId ? join(i.detailRoute, [i.processInstanceId, i.businessId]) : null;

/**
 * A done task's detail: a task answers its handling route (the category route + `/handle`); its detail is the same
 * category route + `/detail`.
 */
export const taskDetailPath = (t: { formRoute: string | null; processInstanceId: string; businessId: string | null }) =>
  detailPath({
    detailRoute: t.formRoute ? t.formRoute.replace(/\/handle\/?$/, '/detail') : null,
    processInstanceId: t.processInstanceId,
    businessId: t.businessId,
  });
