import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Modal, Spin, Tabs, Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TreeNode } from '../../components/crud/types';
import { useSubmit } from '../../components/crud/useSubmit';
import { labelMenuTree } from '../../layout/sidebarKeys';
import { useMenu } from '../../stores/menu';
import EmptyState from '../../components/EmptyState';

/** strict: nodes are checked one by one (no cascade) and saved exactly as checked. */
export type GrantTab = { key: string; label: string; tree: TreeNode[]; keys: string[]; strict?: boolean };

/** Parent and children of every node of a tree. */
function shape(tree: TreeNode[]) {
  const parent = new Map<string, string | undefined>();
  const kids = new Map<string, string[]>();
  const walk = (nodes: TreeNode[], up?: string) =>
    nodes.forEach((n) => {
      parent.set(n.key, up);
      kids.set(
        n.key,
        (n.children ?? []).map((c) => c.key),
      );
      if (n.children?.length) walk(n.children, n.key);
    });
  walk(tree);
  return { parent, kids };
}

/** The checked nodes plus every ancestor of them (the half-checked parents a grant must include). */
export function withAncestors(tree: TreeNode[], checked: string[]): string[] {
  const { parent } = shape(tree);
  const out = new Set<string>();
  for (const k of checked) {
    for (let at: string | undefined = k; at && !out.has(at); at = parent.get(at)) out.add(at);
  }
  return [...out];
}

/**
 * Pre-checked keys as a cascading tree shows them: a parent whose grant lists some of its descendants is left to
 * show half-checked from them; a parent listed alone (none of its descendants listed) is checked whole.
 */
export function initialChecked(tree: TreeNode[], keys: string[]): string[] {
  const { kids } = shape(tree);
  const listed = new Set(keys.map(String));
  const anyBelow = (k: string): boolean => (kids.get(k) ?? []).some((c) => listed.has(c) || anyBelow(c));
  return [...listed].filter((k) => kids.has(k) && !anyBelow(k));
}

const initialOf = (tab: GrantTab) => (tab.strict ? tab.keys.map(String) : initialChecked(tab.tree, tab.keys));

function Trees({ tabs, onChange }: { tabs: GrantTab[]; onChange: (key: string, checked: string[]) => void }) {
  const { i18n } = useTranslation();
  const names = useMenu((s) => s.names);
  // Menu nodes carry the name only; the user's menus (and buttons) give their aliases, as in the sidebar.
  const trees = useMemo(
    () => Object.fromEntries(tabs.map((tab) => [tab.key, labelMenuTree(tab.tree, names, i18n.language)])),
    [tabs, names, i18n.language],
  );
  const [checked, setChecked] = useState<Record<string, string[]>>(() =>
    Object.fromEntries(tabs.map((t) => [t.key, initialOf(t)])),
  );
  const panes = tabs.map((tab) => ({
    key: tab.key,
    label: tab.label,
    children: tab.tree.length ? (
      <div style={{ maxHeight: 420, overflow: 'auto' }} data-testid={`grant-${tab.key}`}>
        <Tree
          checkable
          checkStrictly={tab.strict}
          defaultExpandAll
          treeData={trees[tab.key]}
          checkedKeys={checked[tab.key]}
          onCheck={(keys) => {
            const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
            setChecked((c) => ({ ...c, [tab.key]: list }));
            onChange(tab.key, list);
          }}
        />
      </div>
    ) : (
      <EmptyState />
    ),
  }));
  return tabs.length === 1 ? panes[0].children : <Tabs items={panes} />;
}

/**
 * A dialog of checkable trees (role grant: menus / data scopes / API scopes; top-menu settings: menus), each
 * pre-checked, saved as checked plus half-checked ids.
 */
export default function GrantDialog({
  title,
  queryKey,
  load,
  save,
  onClose,
}: {
  title: string;
  queryKey: unknown[];
  load: () => Promise<GrantTab[]>;
  save: (ids: Record<string, string[]>) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const data = useQuery({ queryKey: ['grant', ...queryKey], queryFn: load, gcTime: 0, staleTime: 0 });
  const [edits, setEdits] = useState<Record<string, string[]>>({});
  const [saving, submit] = useSubmit();
  const tabs = data.data;
  const current = useMemo(
    () => Object.fromEntries((tabs ?? []).map((tab) => [tab.key, edits[tab.key] ?? initialOf(tab)])),
    [tabs, edits],
  );

  const ok = async () => {
    if (!tabs) return;
    await submit(
      () =>
        save(
          Object.fromEntries(
            tabs.map((tab) => [tab.key, tab.strict ? current[tab.key] : withAncestors(tab.tree, current[tab.key])]),
          ),
        ),
      t('system.granted'),
      onClose,
    );
  };

  return (
    <Modal
      open
      title={title}
      width={640}
      onCancel={onClose}
      onOk={() => void ok()}
      confirmLoading={saving}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !tabs }}
    >
      {tabs ? (
        <Trees tabs={tabs} onChange={(key, list) => setEdits((e) => ({ ...e, [key]: list }))} />
      ) : (
        <Spin style={{ display: 'block', margin: 24 }} />
      )}
    </Modal>
  );
}
