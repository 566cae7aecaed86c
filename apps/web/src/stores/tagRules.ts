import i18n from '../i18n';

/** A tab of the tags bar (docs/product.md "Records" "Tag"). `value` is the full path with query. */
export type Tag = {
  label: string;
  value: string;
  /** i18n key for the label, when there is one. */
  i18n?: string;
  query?: Record<string, string>;
  meta?: { isTab?: boolean; keepAlive?: boolean };
  group?: string[];
  close: boolean;
};

// The label is only the fallback of the i18n key (TagsBar shows the key in the current language).
export const HOME_TAG: Tag = { label: i18n.t('tags.home'), value: '/wel/index', i18n: 'tags.home', close: false };

/** docs/product.md "States": a route becomes a tag unless marked not-a-tab or missing a name or path; no duplicates. */
export function addTag(tags: Tag[], tag: Tag): Tag[] {
  if (tag.meta?.isTab === false || !tag.label || !tag.value) return tags;
  if (tags.some((t) => t.value === tag.value)) return tags;
  return [...tags, tag];
}

/** Closes `value`; when it was active, the previous tag (or the first) becomes active. One tag cannot be closed. */
export function closeTag(tags: Tag[], value: string, active: string): { tags: Tag[]; active: string } {
  const i = tags.findIndex((t) => t.value === value);
  if (tags.length <= 1 || i < 0 || tags[i].close === false) return { tags, active };
  const next = tags.filter((_, j) => j !== i);
  if (value !== active) return { tags: next, active };
  return { tags: next, active: (next[i - 1] ?? next[0]).value };
}

/** Keeps the current tag and the home tag. */
export function closeOthers(tags: Tag[], active: string): Tag[] {
  return tags.filter((t) => t.value === active || t.value === HOME_TAG.value);
}

/** Resets to the home tag only. */
export function closeAll(): Tag[] {
  return [HOME_TAG];
}
