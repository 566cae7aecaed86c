import { describe, expect, it } from 'vitest';
import { screenClass } from './screen';

describe('screen classes', () => {
  it('classifies at 768, 992 and 1200', () => {
    expect([0, 767, 768, 991, 992, 1199, 1200, 2560].map(screenClass)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
});
