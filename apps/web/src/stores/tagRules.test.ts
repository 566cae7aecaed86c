import { describe, expect, it } from 'vitest';
import { HOME_TAG, addTag, closeAll, closeOthers, closeTag, type Tag } from './tagRules';

const tag = (value: string): Tag => ({ label: value, value, close: true });
const values = (tags: Tag[]) => tags.map((t) => t.value);

describe('tags', () => {
  it('adds a route once, and never one marked not-a-tab or without name or path', () => {
    let tags = addTag([HOME_TAG], tag('/a/index'));
    tags = addTag(tags, tag('/a/index'));
    tags = addTag(tags, { ...tag('/b/index'), meta: { isTab: false } });
    tags = addTag(tags, { ...tag('/c/index'), label: '' });
    tags = addTag(tags, { ...tag(''), label: 'x' });
    expect(values(tags)).toEqual(['/wel/index', '/a/index']);
  });

  it('closing the active tag activates the previous one', () => {
    const tags = [HOME_TAG, tag('/a'), tag('/b'), tag('/c')];
    expect(closeTag(tags, '/c', '/c')).toEqual({ tags: [HOME_TAG, tag('/a'), tag('/b')], active: '/b' });
    expect(closeTag(tags, '/a', '/a').active).toBe('/wel/index');
  });

  it('closing another tag keeps the active one', () => {
    const r = closeTag([HOME_TAG, tag('/a'), tag('/b')], '/a', '/b');
    expect(values(r.tags)).toEqual(['/wel/index', '/b']);
    expect(r.active).toBe('/b');
  });

  it('the home tag is not closable, and a single tag cannot be closed', () => {
    const tags = [HOME_TAG, tag('/a')];
    expect(closeTag(tags, '/wel/index', '/a').tags).toBe(tags);
    const single = [tag('/a')];
    expect(closeTag(single, '/a', '/a').tags).toBe(single);
  });

  it('close others keeps the current and the home tag; close all keeps home only', () => {
    const tags = [HOME_TAG, tag('/a'), tag('/b'), tag('/c')];
    expect(values(closeOthers(tags, '/b'))).toEqual(['/wel/index', '/b']);
    expect(values(closeAll())).toEqual(['/wel/index']);
  });
});
