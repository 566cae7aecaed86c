import { Suspense, type ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';

/**
 * Renders a screen as the console hosts it in a test: a fresh query cache without retries, antd's App context, and a
 * Suspense boundary for its lazy parts (showing `loading`).
 */
export function renderScreen(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <Suspense fallback="loading">{ui}</Suspense>
      </App>
    </QueryClientProvider>,
  );
}
