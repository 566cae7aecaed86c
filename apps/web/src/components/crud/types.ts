import type { ReactNode } from 'react';

export type CrudField = {
  name: string;
  /** i18n key of the label. */
  label: string;
  type?: 'text' | 'number' | 'textarea' | 'select';
  required?: boolean;
  /** i18n key of the required message. */
  requiredMessage?: string;
  options?: { value: string | number; label: string }[];
  /** Shown as a search field. */
  search?: boolean;
  /** Column in the table (default true). */
  column?: boolean;
  /** Field in the add/edit/view dialog (default true). */
  form?: boolean;
  width?: number;
  render?: (value: unknown, row: Record<string, unknown>) => ReactNode;
};

export type CrudSchema = {
  /** e.g. '/api/blade-system/post' */
  base: string;
  listPath?: string;
  /** i18n key of the screen title. */
  title: string;
  /** Permission codes from the server's buttons. */
  codes: { add: string; edit: string; delete: string; view: string };
  fields: CrudField[];
};
