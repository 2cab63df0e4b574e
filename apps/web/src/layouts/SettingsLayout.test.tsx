import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import i18n from '../i18n';
import { Providers } from '../app/providers';
import type { RouteNode } from '../app/routes';
import { SettingsLayout } from './SettingsLayout';
import { stubViewport as viewport } from '../test/viewport';

const NODE: RouteNode = {
  path: 'home',
  titleKey: 'menu:operator.home',
  layout: 'settings',
  children: [{ path: 'form', titleKey: 'menu:operator.home' }],
};

let mounts = 0;
function FormPage() {
  const [text, setText] = useState('');
  useState(() => ++mounts);
  return <input data-testid="typed" value={text} onChange={(e) => setText(e.target.value)} />;
}

beforeEach(async () => {
  mounts = 0;
  await i18n.changeLanguage('en_US');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SettingsLayout', () => {
  it('keeps the page (and what was typed) when the viewport crosses the phone width and back', () => {
    const resize = viewport(1440);
    render(
      <Providers>
        <MemoryRouter initialEntries={['/a/home/form']}>
          <Routes>
            <Route path="/a/home" element={<SettingsLayout node={NODE} basePath="/a/home" />}>
              <Route path="form" element={<FormPage />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </Providers>,
    );
    expect(screen.getByTestId('settings-menu')).toBeTruthy();
    fireEvent.change(screen.getByTestId('typed'), { target: { value: 'typed before' } });

    resize(360);
    expect(screen.getByTestId('settings-menu-button')).toBeTruthy();
    expect(screen.queryByTestId('settings-menu')).toBeNull();
    resize(1440);
    expect(screen.getByTestId('settings-menu')).toBeTruthy();

    expect((screen.getByTestId('typed') as HTMLInputElement).value).toBe('typed before');
    expect(mounts).toBe(1);
  });
});
