import { fakeMediaQuery } from './test-media';

// jsdom lacks matchMedia, which antd's responsive observers call.
if (!window.matchMedia) window.matchMedia = (query: string) => fakeMediaQuery(query, false);

// jsdom lacks ResizeObserver, which antd's Table (sticky/scroll measuring) observes with.
if (!('ResizeObserver' in window)) {
  class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver });
  Object.assign(globalThis, { ResizeObserver });
}
