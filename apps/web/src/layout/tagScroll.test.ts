import { describe, expect, it } from 'vitest';
import { revealScroll } from './tagScroll';

describe('bringing the active tag into view', () => {
  it('leaves a visible tag where it is', () => {
    expect(revealScroll(100, 400, 150, 80, 10)).toBe(100);
  });
  it('scrolls right just enough for a tag beyond the right edge, with the margin', () => {
    expect(revealScroll(0, 400, 1200, 80, 10)).toBe(1200 + 80 + 10 - 400);
  });
  it('scrolls left to a tag before the left edge, never below 0', () => {
    expect(revealScroll(500, 400, 200, 80, 10)).toBe(190);
    expect(revealScroll(500, 400, 4, 80, 10)).toBe(0);
  });
  it('aligns a tag wider than the view to its start', () => {
    expect(revealScroll(0, 100, 300, 150, 10)).toBe(290);
  });
});
