/** A MediaQueryList answering `matches` for `query` (jsdom has no matchMedia; antd's breakpoints call it). */
export const fakeMediaQuery = (query: string, matches: boolean): MediaQueryList => ({
  matches,
  media: query,
  onchange: null,
  addListener() {},
  removeListener() {},
  addEventListener() {},
  removeEventListener() {},
  dispatchEvent: () => false,
});
