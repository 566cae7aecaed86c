import { describe, expect, it, vi } from 'vitest';
import { fitDiagram, paddedViewbox } from './fit';

describe('paddedViewbox', () => {
  it('shrinks a large diagram into the container with a margin, centred', () => {
    const box = paddedViewbox({ x: 100, y: 50, width: 904, height: 200 }, { width: 500, height: 400 })!;
    const scale = 500 / box.width;
    expect(scale).toBeCloseTo(0.5);
    // the diagram's left edge lies 24 screen pixels inside the container
    expect((100 - box.x) * scale).toBeCloseTo(24);
    // vertically centred: as much room above as below
    const above = (50 - box.y) * scale;
    const below = (box.y + box.height - 250) * scale;
    expect(above).toBeCloseTo(below);
  });

  it('never enlarges a small diagram', () => {
    const box = paddedViewbox({ x: 0, y: 0, width: 36, height: 36 }, { width: 800, height: 400 })!;
    expect(box.width).toBe(800);
    expect(box.height).toBe(400);
    expect(box.x).toBe(18 - 400);
    expect(box.y).toBe(18 - 200);
  });

  it('keeps the palette strip free', () => {
    const box = paddedViewbox({ x: 0, y: 0, width: 352, height: 100 }, { width: 500, height: 400 }, 24, 100)!;
    const scale = 500 / box.width;
    expect(scale).toBeCloseTo(1);
    expect(-box.x * scale).toBeCloseTo(124);
  });

  it('does nothing for an empty diagram or a hidden container', () => {
    expect(paddedViewbox({ x: 0, y: 0, width: 0, height: 0 }, { width: 500, height: 400 })).toBeNull();
    expect(paddedViewbox({ x: 0, y: 0, width: 10, height: 10 }, { width: 0, height: 0 })).toBeNull();
    const canvas = {
      viewbox: vi.fn(() => ({ inner: { x: 0, y: 0, width: 0, height: 0 }, outer: { width: 1, height: 1 } })),
    };
    fitDiagram(canvas);
    expect(canvas.viewbox).toHaveBeenCalledTimes(1);
  });
});
