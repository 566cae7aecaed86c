import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import i18n from '../../../i18n';
import { get, post } from '../../../api/http';
import { useSession } from '../../../stores/session';
import { registry } from '../../../app/registry';
import { renderScreen } from '../../../test-render.tsx';
import StartPage from './start.page';
import ClaimPage from './claim.page';
import TodoPage from './todo.page';
import SendPage from './send.page';
import DonePage from './done.page';

/** 我的事务 (docs/workflow.md "Screens: my work and leave"): the five lists, their buttons and the claim race. */
vi.mock('../../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const page = <T,>(records: T[]) => ({ records, total: records.length, size: 10, current: 1, pages: 1 });
const process = {
  processDefinitionId: '11',
  processDefinitionKey: 'leave',
  processDefinitionName: '请假流程',
  processDefinitionVersion: 2,
  category: '1',
  businessId: '900',
  startUser: '5',
  startUserName: '张三',
};
const task = (over: object = {}) => ({
  ...process,
  processInstanceId: '300',
  taskId: '700',
  taskName: '经理审批',
  taskDefinitionKey: 'managerApprove',
  assignee: null,
  assigneeName: null,
  createTime: '2026-11-27T01:00:00Z',
  claimTime: null,
  endTime: null,
  formRoute: '/work/process/leave/handle',
  flag: null,
  comment: null,
  processIsFinished: false,
  suspensionState: 1,
  ...over,
});
const definitions = [
  {
    id: '11',
    deploymentId: '1',
    key: 'leave',
    name: '请假流程',
    category: '1',
    version: 2,
    suspensionState: 1,
    deploymentTime: '2026-11-27T00:00:00Z',
    resourceName: 'leave.bpmn',
    tenantId: '000000',
    formRoute: '/work/process/leave/form',
  },
  {
    id: '12',
    deploymentId: '1',
    key: 'purchase',
    name: '采购流程',
    category: '9',
    version: 1,
    suspensionState: 1,
    deploymentTime: '2026-11-27T00:00:00Z',
    resourceName: 'purchase.bpmn',
    tenantId: '000000',
    formRoute: null,
  },
];
const instance = (over: object = {}) => ({
  ...process,
  processInstanceId: '300',
  startTime: '2026-11-27T01:00:00Z',
  endTime: null,
  status: 'running',
  deleteReason: null,
  currentSteps: ['经理审批'],
  suspensionState: 1,
  detailRoute: '/work/process/leave/detail',
  ...over,
});

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}
function show(ui: React.ReactElement) {
  return renderScreen(
    <MemoryRouter initialEntries={['/here']}>
      <Routes>
        <Route path="/here" element={ui} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}
const hold = (...codes: string[]) =>
  useSession.setState({ permission: Object.fromEntries(codes.map((c) => [c, true])) });
const calledWith = (part: string) => mockGet.mock.calls.filter((c) => String(c[0]).includes(part));

let claimList: ReturnType<typeof task>[] = [];
beforeEach(async () => {
  hold('work_start', 'work_claim', 'work_claim_sign', 'work_todo', 'work_todo_handle', 'work_send', 'work_done');
  mockGet.mockReset();
  mockPost.mockReset();
  claimList = [task({ taskId: '701', taskName: '人事审批' })];
  mockGet.mockImplementation(async (url: string) => {
    if (url.includes('/dict-biz/dictionary')) return [{ dictKey: '1', dictValue: '人事类' }];
    if (url.includes('/work/start-list')) return page(definitions);
    if (url.includes('/work/claim-list')) return page(claimList);
    if (url.includes('/work/todo-list')) return page([task({ assignee: '8', assigneeName: '李经理' })]);
    if (url.includes('/work/send-list'))
      return page([
        instance(),
        instance({ processInstanceId: '301', status: 'ended', currentSteps: [], businessId: '901' }),
      ]);
    if (url.includes('/work/done-list'))
      return page([
        task({ taskId: '702', flag: 'ok', comment: '同意', endTime: '2026-11-27T03:00:00Z' }),
        task({ taskId: '703', flag: 'reject', comment: '时间冲突', endTime: '2026-11-27T04:00:00Z' }),
      ]);
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 20)));
});

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

describe('我的事务 lists', () => {
  it('are registered under the menu paths', () => {
    for (const p of ['start', 'claim', 'todo', 'send', 'done']) expect(registry[`/work/${p}/index`]).toBeTruthy();
  });

  it('发起事务 opens the start form of a process with a form, and says why another cannot be started', async () => {
    show(<StartPage />);
    const leave = await rowOf('请假流程');
    expect(within(leave).getByText('v2')).toBeTruthy();
    // The category by its name in the business dictionary flow; an unknown one by its key.
    expect(within(leave).getByText('人事类')).toBeTruthy();
    const other = await rowOf('采购流程');
    const disabled = within(other).getByRole('button', { name: /发\s*起/ }) as HTMLButtonElement;
    expect(disabled.disabled).toBe(true);
    fireEvent.mouseOver(disabled.parentElement!);
    expect(await screen.findByText('该流程分类没有配置表单，不能在此发起')).toBeTruthy();
    fireEvent.click(within(leave).getByRole('button', { name: /发\s*起/ }));
    expect((await screen.findByTestId('where')).textContent).toBe('/work/process/leave/form/11');
  }, 30_000);

  it('searches by process name and sorts on the server', async () => {
    show(<TodoPage />);
    await rowOf('经理审批');
    fireEvent.change(screen.getByPlaceholderText('按流程名称搜索'), { target: { value: '请假' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await vi.waitFor(() =>
      expect(
        calledWith('/work/todo-list').some((c) => (c[1] as Record<string, unknown>).processDefinitionName === '请假'),
      ).toBe(true),
    );
    fireEvent.click(screen.getByRole('columnheader', { name: /创建时间/ }));
    await vi.waitFor(() =>
      expect(calledWith('/work/todo-list').some((c) => (c[1] as Record<string, unknown>).ascs === 'createTime')).toBe(
        true,
      ),
    );
  }, 30_000);

  it('待办事务 opens the handling screen with the task, instance and business ids', async () => {
    show(<TodoPage />);
    const row = await rowOf('经理审批');
    expect(within(row).getByText('张三')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /处\s*理/ }));
    expect((await screen.findByTestId('where')).textContent).toBe('/work/process/leave/handle/700/300/900');
  }, 30_000);

  it('shows no 处理 nor 签收 button without their codes', async () => {
    hold('work_todo', 'work_claim');
    show(<TodoPage />);
    const row = await rowOf('经理审批');
    expect(within(row).queryByRole('button', { name: /处\s*理/ })).toBeNull();
    cleanup();
    show(<ClaimPage />);
    const claim = await rowOf('人事审批');
    expect(within(claim).queryByRole('button', { name: /签\s*收/ })).toBeNull();
  }, 30_000);

  it('签收 claims the task and reloads the list', async () => {
    mockPost.mockImplementation(async () => {
      claimList = [];
      return task({ taskId: '701' });
    });
    show(<ClaimPage />);
    const row = await rowOf('人事审批');
    fireEvent.click(within(row).getByRole('button', { name: /签\s*收/ }));
    expect(await screen.findByText('已签收，可在待办事务中处理')).toBeTruthy();
    const [url, , config] = mockPost.mock.calls[0]!;
    expect(String(url)).toContain('/api/blade-flow/work/claim-task');
    expect((config as { params: object }).params).toEqual({ taskId: '701' });
    await vi.waitFor(() => expect(screen.queryByText('人事审批')).toBeNull());
  }, 30_000);

  it('签收 of a task someone else claimed says so and reloads the list (409)', async () => {
    mockPost.mockImplementation(async () => {
      claimList = [];
      throw Object.assign(new Error('409'), { response: { status: 409, data: { msg: '任务已被他人签收' } } });
    });
    show(<ClaimPage />);
    const row = await rowOf('人事审批');
    const before = calledWith('/work/claim-list').length;
    fireEvent.click(within(row).getByRole('button', { name: /签\s*收/ }));
    expect(await screen.findByText('该任务已被他人签收，列表已刷新: 任务已被他人签收')).toBeTruthy();
    await vi.waitFor(() => expect(calledWith('/work/claim-list').length).toBeGreaterThan(before));
    await vi.waitFor(() => expect(screen.queryByText('人事审批')).toBeNull());
  }, 30_000);

  it('已发事务 shows the state and current steps and opens the detail, in both languages', async () => {
    show(<SendPage />);
    const running = await rowOf('运行中');
    expect(within(running).getByText('经理审批')).toBeTruthy();
    expect(await screen.findByText('已结束')).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('Running')).toBeTruthy();
    expect(screen.getAllByText('Ended').some((e) => e.closest('.ant-tag'))).toBe(true);
    fireEvent.click(within(running).getByRole('button', { name: 'Details' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/work/process/leave/detail/300/900');
  }, 30_000);

  it('办结事务 shows the outcome and comment and opens the detail', async () => {
    show(<DonePage />);
    const passed = await rowOf('同意');
    expect(within(passed).getByText('通过')).toBeTruthy();
    const rejected = await rowOf('时间冲突');
    expect(within(rejected).getByText('驳回')).toBeTruthy();
    fireEvent.click(within(rejected).getByRole('button', { name: /详\s*情/ }));
    expect((await screen.findByTestId('where')).textContent).toBe('/work/process/leave/detail/300/900');
  }, 30_000);

  it('says when a list cannot be loaded and offers to retry', async () => {
    mockGet.mockImplementation(async () => {
      throw new Error('500');
    });
    show(<SendPage />);
    expect(await screen.findByText('列表加载失败')).toBeTruthy();
    expect(screen.getByRole('button', { name: /重\s*试/ })).toBeTruthy();
  }, 30_000);
});
