/**
 * The scroll offset that brings an item fully into a horizontally scrolled view, moving as little as possible
 * (`pad` pixels of margin on the side it enters from); an item wider than the view is aligned to its start.
 */
export function revealScroll(scrollLeft: number, viewWidth: number, itemLeft: number, itemWidth: number, pad = 0) {
  if (itemLeft - pad < scrollLeft || itemWidth + 2 * pad > viewWidth) return Math.max(0, itemLeft - pad);
  if (itemLeft + itemWidth + pad > scrollLeft + viewWidth) return itemLeft + itemWidth + pad - viewWidth;
  return scrollLeft;
}
