import { describe, expect, it } from 'vitest';
import { useSettings } from './settings';

describe('the phone drawer', () => {
  it('starts closed and closes whenever the screen class changes', () => {
    const s = useSettings.getState();
    s.setScreen(390);
    expect(useSettings.getState()).toMatchObject({ screen: 0, menuOpen: false });
    s.setMenuOpen(true);
    // A resize within the same class (rotating a phone slightly, a scrollbar appearing) keeps it open.
    s.setScreen(400);
    expect(useSettings.getState().menuOpen).toBe(true);
    s.setScreen(1366);
    expect(useSettings.getState()).toMatchObject({ screen: 3, menuOpen: false });
  });
});
