import { useCallback, useEffect, useMemo, useState } from 'react';
import { Cascader } from 'antd';
import { REGION_ROOT, regionPath } from '@atrium/contract/resources/system/region';
import { regionChildren, type RegionNode } from '../../api/region';
import type { InputProps } from './fieldTypes';

/**
 * The `region` field kind (docs/web.md "Field types"): a cascader over the region tree, loaded one level at a time
 * from `lazy-tree?parentCode=` (public: the national list). The value is one code, of any level. A stored
 * code opens on its path: by the code rule its ancestors are its own prefixes (province 2 digits, city 4,
 * district 6, town 9 — what the record's `ancestors` holds), so the levels along it are loaded at once, without a
 * detail call the field's user might not be allowed. `loader` replaces the signed-in call (the public registration
 * page loads the levels for its tenant).
 */

type Option = { value: string; label: string; isLeaf: boolean; loading?: boolean; children?: Option[] };

export function RegionCascader(p: InputProps & { loader?: (parentCode: string) => Promise<RegionNode[]> }) {
  const loader = p.loader ?? regionChildren;
  const value = typeof p.value === 'string' || typeof p.value === 'number' ? String(p.value) : '';
  const [levels, setLevels] = useState<Record<string, RegionNode[]>>({});
  const [loading, setLoading] = useState<Record<string, boolean>>({});

  const load = useCallback(
    async (parentCode: string) => {
      setLoading((l) => ({ ...l, [parentCode]: true }));
      try {
        const nodes = await loader(parentCode);
        setLevels((all) => (all[parentCode] === nodes ? all : { ...all, [parentCode]: nodes }));
      } catch {
        // The http client has shown the failure; the level can be opened again.
      } finally {
        setLoading((l) => ({ ...l, [parentCode]: false }));
      }
    },
    [loader],
  );

  // The first level, and every level along the stored code's path.
  const path = useMemo(() => regionPath(value), [value]);
  useEffect(() => {
    for (const parent of [REGION_ROOT, ...path.slice(0, -1)]) void load(parent);
  }, [path, load]);

  const options = useMemo(() => {
    const build = (parentCode: string): Option[] | undefined =>
      levels[parentCode]?.map((n) => ({
        value: n.value,
        label: n.title,
        isLeaf: !n.hasChildren,
        loading: loading[n.value],
        children: n.hasChildren ? build(n.value) : undefined,
      }));
    return build(REGION_ROOT) ?? [];
  }, [levels, loading]);

  return (
    <Cascader
      id={p.id}
      disabled={p.disabled}
      placeholder={p.search ? undefined : p.placeholder}
      options={options}
      value={path.length ? path : undefined}
      changeOnSelect
      allowClear
      loadData={(selected) => {
        const last = selected[selected.length - 1] as Option | undefined;
        if (last && !levels[last.value]) void load(last.value);
      }}
      onChange={(v) => {
        const codes = (v ?? []) as string[];
        p.onChange?.(codes.length ? codes[codes.length - 1] : '');
      }}
      onBlur={p.onBlur}
      style={{ width: '100%', minWidth: p.search ? 200 : undefined }}
      data-testid="region-cascader"
    />
  );
}
