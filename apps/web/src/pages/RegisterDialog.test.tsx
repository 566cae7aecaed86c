import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import '../i18n';
import RegisterDialog from './RegisterDialog';

describe('RegisterDialog', () => {
  it('shows the spec messages in order as the user fills the form', async () => {
    const view = render(<RegisterDialog open onClose={() => undefined} />);
    const ok = () => fireEvent.click(screen.getAllByRole('button').find((b) => /提\s*交/.test(b.textContent ?? ''))!);
    const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

    fireEvent.change(field('租户编号'), { target: { value: '' } });
    ok();
    await waitFor(() => expect(screen.getByText('请先输入租户编号')).toBeTruthy());

    fireEvent.change(field('租户编号'), { target: { value: '000000' } });
    ok();
    await waitFor(() => expect(screen.getByText('请先输入账号名称')).toBeTruthy());

    fireEvent.change(field('账号名称'), { target: { value: 'zhang' } });
    fireEvent.change(field('密码'), { target: { value: 'Secret#2026' } });
    ok();
    await waitFor(() => expect(screen.getByText('请先输入密码')).toBeTruthy());

    fireEvent.change(field('确认密码'), { target: { value: 'Secret#2027' } });
    ok();
    await waitFor(() => expect(screen.getByText('两次密码输入不一致')).toBeTruthy());
    view.unmount();
    // Let antd's message timers and React's scheduler finish before the environment is torn down.
    await act(() => new Promise((r) => setTimeout(r, 300)));
  }, 30_000);
});
