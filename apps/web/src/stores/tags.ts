import { create } from 'zustand';
import { getStore, setStore } from './storage';
import { HOME_TAG, addTag, closeAll, closeOthers, closeTag, type Tag } from './tagRules';

type TagsState = {
  tags: Tag[];
  active: string;
  open(tag: Tag): void;
  /** Returns the tag to show next. */
  close(value: string): string;
  closeOthers(): void;
  closeAll(): void;
};

const persist = (tags: Tag[], active: string) => {
  setStore({ name: 'tagList', content: tags, type: true });
  setStore({ name: 'tag', content: active, type: true });
};

export const useTags = create<TagsState>((set, get) => ({
  tags: getStore<Tag[]>({ name: 'tagList' }) ?? [HOME_TAG],
  active: getStore<string>({ name: 'tag' }) ?? HOME_TAG.value,
  open(tag) {
    const tags = addTag(get().tags, tag);
    persist(tags, tag.value);
    set({ tags, active: tag.value });
  },
  close(value) {
    const r = closeTag(get().tags, value, get().active);
    persist(r.tags, r.active);
    set(r);
    return r.active;
  },
  closeOthers() {
    const tags = closeOthers(get().tags, get().active);
    persist(tags, get().active);
    set({ tags });
  },
  closeAll() {
    persist(closeAll(), HOME_TAG.value);
    set({ tags: closeAll(), active: HOME_TAG.value });
  },
}));

/** On login and logout the tags reset to the home tag. */
export function resetTags() {
  useTags.getState().closeAll();
}
