import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers, createQueryClient } from './app/providers';
import { createRouter } from './app/router';
import './styles.css';

const client = createQueryClient();
const router = createRouter();

// a cold start at the root or at the login page most often ends on the login form: its code is
// fetched while the start-up data loads, instead of after it
if (/^\/ui\/?(login(\/.*)?)?$/.test(window.location.pathname)) void import('./features/auth/pages/login-page');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers client={client}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
