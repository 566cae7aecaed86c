/** Fitting a diagram into its container (docs/workflow.md "Diagram components"). */

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface CanvasLike {
  viewbox(): { inner: Box; outer: { width: number; height: number } };
  viewbox(box: Box): unknown;
}

/**
 * The view box showing the whole diagram (`inner`) centred in the container (`outer`) with `pad` pixels of margin,
 * never enlarged beyond its natural size; null when there is nothing to show. `left` pixels of the container (the
 * modeler's palette) are kept free.
 */
export function paddedViewbox(inner: Box, outer: { width: number; height: number }, pad = 24, left = 0): Box | null {
  const free = outer.width - left;
  if (!(inner.width > 0 && inner.height > 0 && free > 2 * pad && outer.height > 2 * pad)) return null;
  const scale = Math.min((free - 2 * pad) / inner.width, (outer.height - 2 * pad) / inner.height, 1);
  const width = outer.width / scale;
  const height = outer.height / scale;
  return {
    x: inner.x + inner.width / 2 - (left + free / 2) / scale,
    y: inner.y + inner.height / 2 - height / 2,
    width,
    height,
  };
}

/** Fits the canvas's diagram with a margin (bpmn-js's own `fit-viewport` leaves none), right of `left` pixels. */
export function fitDiagram(canvas: CanvasLike, pad = 24, left = 0): void {
  const { inner, outer } = canvas.viewbox();
  const box = paddedViewbox(inner, outer, pad, left);
  if (box) canvas.viewbox(box);
}
