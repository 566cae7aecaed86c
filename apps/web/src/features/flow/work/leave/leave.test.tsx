import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import i18n from '../../../../i18n';
import { get, post } from '../../../../api/http';
import { useSession } from '../../../../stores/session';
import { renderScreen } from '../../../../test-render.tsx';
import LeaveFormPage from './LeaveFormPage';
import LeaveHandlePage from './LeaveHandlePage';
import LeaveDetailPage from './LeaveDetailPage';
import { estimateDays, wireTime } from './days';

/** The leave screens (spec §2; docs/workflow.md "Screens: my work and leave"). */
vi.mock('../../../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
// The diagram is bpmn-js in a lazy chunk: here a stand-in that shows what it was given.
vi.mock('../../index', () => ({
  FlowViewer: (p: { doneIds: string[]; currentIds: string[] }) => (
    <div data-testid="viewer">{`done:${p.doneIds.join(',')} current:${p.currentIds.join(',')}`}</div>
  ),
}));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const MANAGER = '8';
const APPLICANT = '5';
const step = (over: object) => ({
  historyActivityId: 'start',
  historyActivityName: '开始',
  historyActivityType: 'StartEvent',
  assignee: null,
  assigneeName: null,
  createTime: '2026-11-27T01:00:00Z',
  endTime: '2026-11-27T01:00:00Z',
  historyActivityDurationTime: 0,
  flag: null,
  comment: null,
  ...over,
});
const leave = (history: object[], over: object = {}) => ({
  id: '900',
  processDefinitionId: '11',
  processInstanceId: '300',
  category: 1,
  startTime: '2026-12-01 09:00:00',
  endTime: '2026-12-02 18:00:00',
  days: 2,
  reason: '回老家',
  taskUser: MANAGER,
  taskUserName: '李经理',
  applyUser: APPLICANT,
  applyUserName: '张三',
  applyTime: '2026-11-27T01:00:00Z',
  status: 'running',
  history,
  ...over,
});
const atManager = leave([
  step({}),
  step({
    historyActivityId: 'managerApprove',
    historyActivityName: '经理审批',
    historyActivityType: 'UserTask',
    assignee: MANAGER,
    assigneeName: '李经理',
    endTime: null,
    historyActivityDurationTime: null,
  }),
]);
const backToApplicant = leave(
  [
    step({}),
    step({
      historyActivityId: 'managerApprove',
      historyActivityName: '经理审批',
      historyActivityType: 'UserTask',
      assignee: MANAGER,
      assigneeName: '李经理',
      endTime: '2026-11-27T02:00:00Z',
      historyActivityDurationTime: 3_600_000,
      flag: 'reject',
      comment: '时间太长',
    }),
    step({
      historyActivityId: 'adjustApply',
      historyActivityName: '调整申请',
      historyActivityType: 'UserTask',
      assignee: APPLICANT,
      assigneeName: '张三',
      createTime: '2026-11-27T02:00:00Z',
      endTime: null,
      historyActivityDurationTime: null,
    }),
  ],
  { status: 'rejected' },
);

let detail: object = atManager;
function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}
function show(path: string, pattern: string, ui: React.ReactElement) {
  return renderScreen(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={pattern} element={ui} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}
const asUser = (id: string) =>
  useSession.setState({
    userInfo: { id, account: id },
    permission: { work_start: true, work_todo: true, work_todo_handle: true },
  });
const body = () => mockPost.mock.calls.at(-1)![1] as Record<string, unknown>;

beforeEach(async () => {
  asUser(MANAGER);
  detail = atManager;
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string, params?: object) => {
    if (url.includes('/dict-biz/dictionary'))
      return (params as { code: string }).code === 'leave_type'
        ? [
            { dictKey: '1', dictValue: i18n.language === 'en' ? 'Personal' : '事假' },
            { dictKey: '2', dictValue: i18n.language === 'en' ? 'Sick' : '病假' },
          ]
        : [];
    if (url.includes('/work/user-options'))
      return [{ id: MANAGER, account: 'manager', realName: '李经理', deptName: '研发部' }];
    if (url.includes('/leave/detail')) return detail;
    if (url.includes('/process/diagram')) return { xml: '<x/>', done: ['start', 'f1'], current: ['managerApprove'] };
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 20)));
});

async function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const items = await screen.findAllByText(option);
  fireEvent.click(items.find((e) => e.closest('.ant-select-item-option')) ?? items[0]!);
}
function typeDate(label: string, text: string) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.blur(input);
}

describe('the days estimate', () => {
  it('counts the server’s half days of the calendar, and nothing for an empty or reversed range', () => {
    const d = (s: string) => new Date(s);
    // The examples of the server's rule (docs/workflow.md "The leave process").
    expect(estimateDays(d('2026-12-07T09:00:00'), d('2026-12-07T12:00:00'))).toBe(0.5);
    expect(estimateDays(d('2026-12-07T13:30:00'), d('2026-12-07T18:00:00'))).toBe(0.5);
    expect(estimateDays(d('2026-12-07T09:00:00'), d('2026-12-07T18:00:00'))).toBe(1);
    expect(estimateDays(d('2026-12-07T09:00:00'), d('2026-12-09T18:00:00'))).toBe(3);
    expect(estimateDays(d('2026-12-07T14:00:00'), d('2026-12-08T11:00:00'))).toBe(1);
    expect(estimateDays(d('2026-12-07T09:00:00'), d('2026-12-08T00:00:00'))).toBe(1);
    expect(estimateDays(d('2026-12-02T09:00:00'), d('2026-12-01T09:00:00'))).toBeNull();
    expect(estimateDays(null, d('2026-12-01T09:00:00'))).toBeNull();
    expect(wireTime(d('2026-12-01T09:05:00'))).toBe('2026-12-01 09:05:00');
  });
});

describe('the leave form', () => {
  const path = '/work/process/leave/form/11';
  const pattern = '/work/process/leave/form/:processDefinitionId';

  it('says what is missing, in zh and en, and sends nothing', async () => {
    show(path, pattern, <LeaveFormPage />);
    fireEvent.click(await screen.findByRole('button', { name: /提交申请/ }));
    for (const text of ['请选择请假类型', '请选择开始时间', '请选择结束时间', '请输入请假理由', '请选择审批人'])
      expect(await screen.findByText(text)).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    for (const text of ['Choose a leave type', 'Choose the start time', 'Enter the reason', 'Choose an approver'])
      expect(await screen.findByText(text)).toBeTruthy();
    expect(mockPost).not.toHaveBeenCalled();
  }, 60_000);

  it('refuses an end before the start', async () => {
    show(path, pattern, <LeaveFormPage />);
    await screen.findByRole('button', { name: /提交申请/ });
    typeDate('开始时间', '2026-12-02 09:00');
    typeDate('结束时间', '2026-12-01 09:00');
    fireEvent.click(screen.getByRole('button', { name: /提交申请/ }));
    expect(await screen.findByText('结束时间须晚于开始时间')).toBeTruthy();
    expect(mockPost).not.toHaveBeenCalled();
  }, 60_000);

  it('shows an estimate, sends the request and shows the server’s days, then goes to 已发事务', async () => {
    mockPost.mockResolvedValue({ ...atManager, days: 1.5 });
    show(path, pattern, <LeaveFormPage />);
    await screen.findByRole('button', { name: /提交申请/ });
    await pick('请假类型', '病假');
    typeDate('开始时间', '2026-12-01 09:00');
    typeDate('结束时间', '2026-12-02 18:00');
    await vi.waitFor(() => expect(screen.getByTestId('leave-days').textContent).toContain('约 2 天'));
    fireEvent.change(screen.getByLabelText('请假理由'), { target: { value: '  看病  ' } });
    const approver = screen.getByLabelText('审批人');
    fireEvent.mouseDown(approver);
    fireEvent.change(approver, { target: { value: '李' } });
    await vi.waitFor(() =>
      expect(
        mockGet.mock.calls.some(
          (c) => String(c[0]).includes('user-options') && (c[1] as { name?: string })?.name === '李',
        ),
      ).toBe(true),
    );
    fireEvent.click(await screen.findByText('李经理 (manager) · 研发部'));
    fireEvent.click(screen.getByRole('button', { name: /提交申请/ }));
    await vi.waitFor(() => expect(mockPost).toHaveBeenCalled());
    expect(String(mockPost.mock.calls[0]![0])).toContain('/api/blade-desk/process/leave/start-process');
    expect(body()).toEqual({
      processDefinitionId: '11',
      category: 2,
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-02 18:00:00',
      reason: '看病',
      taskUser: MANAGER,
    });
    expect(await screen.findByText('请假申请已提交，共 1.5 天')).toBeTruthy();
    expect((await screen.findByTestId('where')).textContent).toBe('/work/send/index');
  }, 60_000);
});

describe('handling a leave', () => {
  const path = '/work/process/leave/handle/700/300/900';
  const pattern = '/work/process/leave/handle/:taskId/:processInstanceId/:businessId';

  it('shows the request and history, and 通过 sends flag ok with the comment', async () => {
    mockPost.mockResolvedValue(true);
    show(path, pattern, <LeaveHandlePage />);
    expect(await screen.findByText('回老家')).toBeTruthy();
    expect(screen.getByText('2 天')).toBeTruthy();
    expect(screen.getAllByText('经理审批').length).toBeGreaterThan(0);
    fireEvent.change(screen.getByLabelText('审批意见'), { target: { value: '同意' } });
    fireEvent.click(screen.getByRole('button', { name: /通\s*过/ }));
    await vi.waitFor(() => expect(mockPost).toHaveBeenCalled());
    expect(String(mockPost.mock.calls[0]![0])).toContain('/api/blade-flow/work/complete-task');
    expect(body()).toEqual({ taskId: '700', processInstanceId: '300', flag: 'ok', comment: '同意' });
    expect((await screen.findByTestId('where')).textContent).toBe('/work/todo/index');
    // The request is read again, so a kept-alive tab of this task does not offer it twice.
    await vi.waitFor(() =>
      expect(mockGet.mock.calls.filter((c) => String(c[0]).includes('/leave/detail')).length).toBeGreaterThan(1),
    );
  }, 60_000);

  it('驳回 sends flag reject', async () => {
    mockPost.mockResolvedValue(true);
    show(path, pattern, <LeaveHandlePage />);
    fireEvent.click(await screen.findByRole('button', { name: /驳\s*回/ }));
    await vi.waitFor(() => expect(mockPost).toHaveBeenCalled());
    expect(body()).toEqual({ taskId: '700', processInstanceId: '300', flag: 'reject' });
  }, 60_000);

  it('says clearly when the task was already completed (409) and offers no second try', async () => {
    mockPost.mockRejectedValue(Object.assign(new Error('409'), { response: { status: 409, data: { msg: 'x' } } }));
    show(path, pattern, <LeaveHandlePage />);
    fireEvent.click(await screen.findByRole('button', { name: /通\s*过/ }));
    expect(await screen.findByText('该任务已被处理（或流程已结束），无需再次提交')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /通\s*过/ })).toBeNull();
    expect(screen.queryByTestId('where')).toBeNull();
  }, 60_000);

  it('shows no 通过 / 驳回 to someone the task does not wait for', async () => {
    asUser('99');
    show(path, pattern, <LeaveHandlePage />);
    expect(await screen.findByText('该任务当前不在您的待办中，只能查看')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /通\s*过/ })).toBeNull();
  }, 60_000);

  it('gives the applicant the editable form: 重新提交 sends flag ok with the adjusted fields', async () => {
    asUser(APPLICANT);
    detail = backToApplicant;
    mockPost.mockResolvedValue(true);
    show('/work/process/leave/handle/701/300/900', pattern, <LeaveHandlePage />);
    expect(await screen.findByText('调整申请', { selector: '.ant-card-head-title' })).toBeTruthy();
    expect(screen.getByText('时间太长')).toBeTruthy();
    const reason = screen.getByLabelText('请假理由') as HTMLTextAreaElement;
    expect(reason.value).toBe('回老家');
    fireEvent.change(reason, { target: { value: '回老家，缩短一天' } });
    typeDate('结束时间', '2026-12-01 18:00');
    fireEvent.click(screen.getByRole('button', { name: /重新提交/ }));
    await vi.waitFor(() => expect(mockPost).toHaveBeenCalled());
    expect(body()).toEqual({
      taskId: '701',
      processInstanceId: '300',
      flag: 'ok',
      variables: {
        category: 1,
        startTime: '2026-12-01 09:00:00',
        endTime: '2026-12-01 18:00:00',
        reason: '回老家，缩短一天',
        taskUser: MANAGER,
      },
    });
  }, 60_000);

  it('取消申请 asks first, then sends flag reject', async () => {
    asUser(APPLICANT);
    detail = backToApplicant;
    mockPost.mockResolvedValue(true);
    show('/work/process/leave/handle/701/300/900', pattern, <LeaveHandlePage />);
    fireEvent.click(await screen.findByRole('button', { name: /取消申请/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('确定取消这份请假申请吗？取消后流程结束。')).toBeTruthy();
    expect(mockPost).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await vi.waitFor(() => expect(mockPost).toHaveBeenCalled());
    expect(body()).toEqual({ taskId: '701', processInstanceId: '300', flag: 'reject' });
  }, 60_000);
});

describe('the leave detail', () => {
  const pattern = '/work/process/leave/detail/:processInstanceId/:businessId';

  it('shows the request, the history and the highlighted diagram, in both languages', async () => {
    detail = backToApplicant;
    show('/work/process/leave/detail/300/900', pattern, <LeaveDetailPage />);
    expect(await screen.findByText('回老家')).toBeTruthy();
    expect(screen.getByText('已驳回', { selector: '.ant-tag' })).toBeTruthy();
    expect(screen.getByText('时间太长')).toBeTruthy();
    expect(screen.getByText(/耗时 1 小时/)).toBeTruthy();
    expect((await screen.findByTestId('viewer')).textContent).toBe('done:start,f1 current:managerApprove');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('Rejected', { selector: '.ant-tag' })).toBeTruthy();
    expect(screen.getByText('Diagram')).toBeTruthy();
  }, 60_000);

  it('says the request is not there when the server answers 404', async () => {
    mockGet.mockImplementation(async (url: string) => {
      if (url.includes('/leave/detail'))
        throw Object.assign(new Error('404'), { response: { status: 404, data: { msg: 'x' } } });
      return [];
    });
    show('/work/process/leave/detail/300/999', pattern, <LeaveDetailPage />);
    expect(await screen.findByText('找不到这份申请，或您无权查看')).toBeTruthy();
  }, 60_000);
});
