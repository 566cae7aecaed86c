import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './index.css';
import App from './app/App';

// A visitor arriving from the external map application (docs/product.md "Users and tenants") brings ?from=map&returnUrl=…
const params = new URLSearchParams(window.location.search);
if (params.get('from') === 'map') sessionStorage.setItem('atrium-fromMapPending', params.get('returnUrl') ?? '');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
