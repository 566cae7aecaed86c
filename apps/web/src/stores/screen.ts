import { BREAKPOINTS } from '@atrium/contract';

/** docs/product.md "Screens and routes": 3 for width ≥ 1200, 2 for ≥ 992, 1 for ≥ 768, otherwise 0. */
export function screenClass(width: number): 0 | 1 | 2 | 3 {
  if (width >= BREAKPOINTS.lg) return 3;
  if (width >= BREAKPOINTS.md) return 2;
  if (width >= BREAKPOINTS.sm) return 1;
  return 0;
}
