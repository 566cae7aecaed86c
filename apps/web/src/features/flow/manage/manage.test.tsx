import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../../i18n';
import { get, post } from '../../../api/http';
import { useSession } from '../../../stores/session';
import { registry } from '../../../app/registry';
import { renderScreen } from '../../../test-render.tsx';
import { ModelScreen } from './ModelScreen';
import { DeployScreen } from './DeployScreen';
import { FollowScreen } from './FollowScreen';
import { fileProblem } from './UploadDialog';

/** The 流程管理 screens (docs/workflow.md "Screens") against a mocked server. */

vi.mock('../../../api/http', () => ({ get: vi.fn(), post: vi.fn(), http: {} }));
// bpmn-js does not draw in jsdom: the diagram components are stand-ins that hand over the XML.
vi.mock('../lazy', () => ({
  FlowModeler: ({ xml, onChange }: { xml?: string; onChange?: (x: string) => void }) => (
    <textarea data-testid="modeler" defaultValue={xml ?? ''} onChange={(e) => onChange?.(e.target.value)} />
  ),
  FlowViewer: ({ currentIds }: { currentIds?: string[] }) => (
    <div data-testid="viewer">{(currentIds ?? []).join(',')}</div>
  ),
}));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const page = <T,>(records: T[]) => ({ records, total: records.length, size: 10, current: 1, pages: 1 });
const MODEL = {
  id: '11',
  modelKey: 'leave',
  name: '请假流程',
  category: '1',
  description: null,
  version: 3,
  createTime: '2026-11-20T01:00:00Z',
  updateTime: '2026-11-27T01:00:00Z',
  deployedVersion: 2,
};
const DEFINITION = {
  id: '21',
  deploymentId: '31',
  key: 'leave',
  name: '请假流程',
  category: '1',
  version: 2,
  suspensionState: 1,
  deploymentTime: '2026-11-27T02:00:00Z',
  resourceName: 'leave.bpmn',
  tenantId: '000000',
  formRoute: null,
};
const INSTANCE = {
  processInstanceId: '41',
  processDefinitionId: '21',
  processDefinitionKey: 'leave',
  processDefinitionName: '请假流程',
  processDefinitionVersion: 2,
  category: '1',
  businessId: '51',
  startUser: '7',
  startUserName: '张三',
  startTime: '2026-11-27T03:00:00Z',
  endTime: null,
  status: 'running',
  deleteReason: null,
  currentSteps: ['经理审批'],
  suspensionState: 1,
  detailRoute: null,
};
const HISTORY = [
  {
    historyActivityId: 'h1',
    historyActivityName: '提交申请',
    historyActivityType: 'userTask',
    assignee: '7',
    assigneeName: '张三',
    createTime: '2026-11-27T03:00:00Z',
    endTime: '2026-11-27T03:05:00Z',
    historyActivityDurationTime: 300_000,
    flag: 'ok',
    comment: '请批准',
  },
];

/** A refusal as the http client rejects it (the envelope's code and message). */
const refused = (code: number, msg: string) =>
  Object.assign(new Error(msg), { response: { status: code, data: { code, msg } } });

const hold = (...codes: string[]) =>
  useSession.setState({
    tenantId: '000001',
    roles: ['manager'],
    permission: Object.fromEntries(codes.map((c) => [c, true])),
  });

beforeEach(async () => {
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/dictionary'))
      return [{ dictKey: '1', dictValue: i18n.language === 'en' ? 'Leave' : '请假流程类' }];
    if (url.endsWith('/model/list')) return page([MODEL]);
    if (url.endsWith('/model/detail')) return { ...MODEL, xml: '<definitions/>' };
    if (url.endsWith('/manager/list')) return page([DEFINITION]);
    if (url.endsWith('/follow/list')) return page([INSTANCE]);
    if (url.endsWith('/process/diagram')) return { xml: '<definitions/>', done: ['start'], current: ['manager'] };
    if (url.endsWith('/process/history-flow-list')) return HISTORY;
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;
const button = (name: RegExp, within_: HTMLElement | typeof screen = screen) =>
  within_ === screen
    ? screen.queryByRole('button', { name })
    : within(within_ as HTMLElement).queryByRole('button', { name });

describe('模型管理', () => {
  it('is the screen of the menu paths', () => {
    for (const p of ['/flow/model/index', '/flow/deploy/index', '/flow/follow/index']) expect(registry[p]).toBeTruthy();
  });

  it('lists the models with category, versions and write buttons by code, in both languages', async () => {
    hold('model', 'model_add', 'model_edit', 'model_delete', 'model_deploy');
    renderScreen(<ModelScreen />);
    const row = await rowOf('leave');
    expect(within(row).getByText('请假流程')).toBeTruthy();
    await within(row).findByText('请假流程类');
    // Categories are the business dictionary `flow`'s keys.
    expect(
      mockGet.mock.calls.some(
        ([u, q]) => String(u).endsWith('/dict-biz/dictionary') && JSON.stringify(q) === '{"code":"flow"}',
      ),
    ).toBe(true);
    expect(within(row).getByText('v2')).toBeTruthy();
    expect(button(/新\s*增/)).toBeTruthy();
    expect(button(/编\s*辑/, row)).toBeTruthy();
    expect(button(/部\s*署/, row)).toBeTruthy();
    expect(button(/删\s*除/, row)).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    await screen.findByText('Models');
    expect(screen.getAllByText('Deployed version').length).toBeGreaterThan(0);
    await within(row).findByText('Leave');
    expect(button(/Deploy/, row)).toBeTruthy();
  }, 60_000);

  it('shows no write button to a user holding only the screen', async () => {
    hold('model');
    renderScreen(<ModelScreen />);
    const row = await rowOf('leave');
    expect(button(/新\s*增/)).toBeNull();
    expect(button(/删\s*除/)).toBeNull();
    expect(button(/编\s*辑/, row)).toBeNull();
    expect(button(/部\s*署/, row)).toBeNull();
  }, 60_000);

  it('keeps the server’s 400 naming the refused element in the editor, and a stale save’s 409', async () => {
    hold('model', 'model_edit');
    const bad = '元素 Task_1：模型中的脚本不会运行（脚本任务）';
    mockPost.mockRejectedValueOnce(refused(400, bad));
    renderScreen(<ModelScreen />);
    fireEvent.click(button(/编\s*辑/, await rowOf('leave'))!);
    const editor = await screen.findByTestId('flow-model-editor');
    const modeler = await within(editor).findByTestId('modeler');
    fireEvent.change(modeler, { target: { value: '<definitions id="changed"/>' } });
    expect(within(editor).getByText('有未保存的修改')).toBeTruthy();
    fireEvent.click(within(editor).getByRole('button', { name: /保\s*存/ }));
    expect((await within(editor).findByTestId('flow-model-problem')).textContent).toContain(bad);
    const [url, body, config] = mockPost.mock.calls[0];
    expect(url).toMatch(/\/model\/submit$/);
    expect(body).toMatchObject({ id: '11', version: 3, modelKey: 'leave', xml: '<definitions id="changed"/>' });
    // The refusal is shown here, not as a toast as well.
    expect(config?.meta?.whitelist).toEqual([400, 409]);

    mockPost.mockRejectedValueOnce(refused(409, '模型已被他人修改，请重新打开'));
    fireEvent.click(within(editor).getByRole('button', { name: /保\s*存/ }));
    await within(editor).findByText('模型已被他人修改，请重新打开');
    expect(within(editor).queryByText(bad)).toBeNull();

    mockPost.mockResolvedValueOnce({ ...MODEL, version: 4 });
    fireEvent.click(within(editor).getByRole('button', { name: /保\s*存/ }));
    await screen.findByText('模型已保存');
    expect(within(editor).queryByTestId('flow-model-problem')).toBeNull();
    expect(within(editor).queryByText('有未保存的修改')).toBeNull();
  }, 60_000);

  it('removes a model after a confirmation naming it', async () => {
    hold('model', 'model_delete');
    mockPost.mockResolvedValueOnce(true);
    renderScreen(<ModelScreen />);
    fireEvent.click(button(/删\s*除/, await rowOf('leave'))!);
    expect((await screen.findAllByText('确定删除模型“请假流程”？已部署的版本不受影响。')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await screen.findByText('已删除');
    expect(mockPost.mock.calls[0][0]).toMatch(/\/model\/remove$/);
    expect(mockPost.mock.calls[0][2]?.params).toEqual({ ids: '11' });
  }, 60_000);

  it('checks a new model’s key before sending', async () => {
    hold('model', 'model_add');
    renderScreen(<ModelScreen />);
    await rowOf('leave');
    fireEvent.click(button(/新\s*增/)!);
    const editor = await screen.findByTestId('flow-model-editor');
    fireEvent.change(within(editor).getByLabelText('模型标识'), { target: { value: '1 bad key' } });
    fireEvent.change(within(editor).getByLabelText('模型名称'), { target: { value: '报销' } });
    fireEvent.click(within(editor).getByRole('button', { name: /保\s*存/ }));
    await within(editor).findByText('模型标识以字母或下划线开头，只含字母、数字、_ . -');
    expect(mockPost).not.toHaveBeenCalled();
  }, 60_000);

  it('deploys a model and tells the new version', async () => {
    hold('model', 'model_deploy');
    mockPost.mockResolvedValueOnce({ deploymentId: '32', definitions: [{ ...DEFINITION, version: 3 }] });
    renderScreen(<ModelScreen />);
    fireEvent.click(button(/部\s*署/, await rowOf('leave'))!);
    const dialog = await screen.findByRole('dialog');
    // A tenant user picks no tenants.
    expect(within(dialog).queryByText('部署到租户')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: /部\s*署/ }));
    await screen.findByText('已部署“请假流程”，版本 v3');
    expect(mockPost.mock.calls[0][1]).toEqual({ modelId: '11', category: '1', tenantIds: undefined });
  }, 60_000);
});

describe('流程部署', () => {
  it('lists the deployed versions with their state; no write button without the codes', async () => {
    hold('deploy');
    renderScreen(<DeployScreen />);
    const row = await rowOf('leave.bpmn');
    expect(within(row).getByText('激活')).toBeTruthy();
    expect(within(row).getByText('v2')).toBeTruthy();
    expect(button(/上传部署/)).toBeNull();
    expect(button(/挂\s*起/, row)).toBeNull();
    expect(button(/删\s*除/, row)).toBeNull();
  }, 60_000);

  it('asks again after a 409 and deletes with cascade, telling how many instances ended', async () => {
    hold('deploy', 'deploy_delete');
    mockPost
      .mockRejectedValueOnce(refused(409, '该部署还有 2 个运行中的流程实例'))
      .mockResolvedValueOnce({ deployments: 1, instancesEnded: 2 });
    renderScreen(<DeployScreen />);
    fireEvent.click(button(/删\s*除/, await rowOf('leave.bpmn'))!);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    const cascade = await screen.findByTestId('flow-cascade');
    expect(cascade.textContent).toContain('该部署还有 2 个运行中的流程实例');
    expect(mockPost.mock.calls[0][2]?.params).toEqual({ deploymentIds: '31' });
    fireEvent.click(screen.getByRole('button', { name: '结束实例并删除' }));
    await screen.findByText('已删除 1 个部署，结束了 2 个流程实例');
    expect(mockPost.mock.calls[1][2]?.params).toEqual({ deploymentIds: '31', cascade: 'true' });
  }, 60_000);

  it('suspends a version after a confirmation', async () => {
    hold('deploy', 'deploy_state');
    mockPost.mockResolvedValueOnce({ ...DEFINITION, suspensionState: 2 });
    renderScreen(<DeployScreen />);
    const row = await rowOf('leave.bpmn');
    expect(button(/激\s*活/, row)).toBeNull();
    fireEvent.click(button(/挂\s*起/, row)!);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await screen.findByText('状态已变更');
    expect(mockPost.mock.calls[0][2]?.params).toEqual({ processId: '21', state: 'suspend' });
  }, 60_000);

  it('uploads .bpmn files as one multipart call and shows the server’s 400', async () => {
    hold('deploy', 'deploy_upload');
    mockPost.mockRejectedValueOnce(refused(400, 'bad.bpmn：不是 BPMN 2.0 模型'));
    renderScreen(<DeployScreen />);
    await rowOf('leave.bpmn');
    fireEvent.click(button(/上传部署/)!);
    const dialog = await screen.findByRole('dialog');
    // The picker's input is replaced after each pick: look it up each time.
    const input = () => dialog.querySelector('input[type=file]') as HTMLInputElement;
    const txt = new File(['x'], 'notes.txt', { type: 'text/plain' });
    fireEvent.change(input(), { target: { files: [txt] } });
    await within(dialog).findByText('“notes.txt”不是 .bpmn 或 .bpmn20.xml 文件');
    const bpmn = new File(['<definitions/>'], 'bad.bpmn', { type: 'application/xml' });
    fireEvent.change(input(), { target: { files: [bpmn] } });
    await within(dialog).findByText('bad.bpmn');
    // The category is required.
    fireEvent.click(within(dialog).getByRole('button', { name: /上传部署/ }));
    await within(dialog).findByText('请选择流程分类');
    expect(mockPost).not.toHaveBeenCalled();
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('请假流程类'));
    fireEvent.click(within(dialog).getByRole('button', { name: /上传部署/ }));
    await within(dialog).findByText('bad.bpmn：不是 BPMN 2.0 模型');
    const form = mockPost.mock.calls[0][1] as FormData;
    expect(form.get('category')).toBe('1');
    expect((form.getAll('files') as File[]).map((f) => f.name)).toEqual(['bad.bpmn']);
  }, 60_000);

  it('refuses a wrong file type or a file over 1 MiB before sending', () => {
    expect(fileProblem({ name: 'a.bpmn', size: 10 })).toBeNull();
    expect(fileProblem({ name: 'a.BPMN20.XML', size: 1024 * 1024 })).toBeNull();
    expect(fileProblem({ name: 'a.xml', size: 10 })).toBe('flowManage.badType');
    expect(fileProblem({ name: 'a.bpmn', size: 1024 * 1024 + 1 })).toBe('flowManage.tooBig');
  });
});

describe('流程跟踪', () => {
  it('lists the instances, shows one with its diagram and history, and deletes with a reason', async () => {
    hold('follow', 'follow_delete');
    mockPost.mockResolvedValueOnce(true);
    renderScreen(<FollowScreen />);
    const row = await rowOf('41');
    expect(within(row).getByText('经理审批')).toBeTruthy();
    expect(within(row).getByText('张三')).toBeTruthy();
    expect(within(row).getByText('运行中')).toBeTruthy();
    // Running instances unless another status is picked.
    const listed = mockGet.mock.calls.find(([u]) => String(u).endsWith('/follow/list'))!;
    expect(listed[1]).toMatchObject({ status: 'running', current: 1 });

    fireEvent.click(button(/查\s*看/, row)!);
    expect((await screen.findByTestId('viewer')).textContent).toBe('manager');
    const history = await screen.findByTestId('flow-history');
    await within(history).findByText('提交申请');
    expect(within(history).getByText('请批准')).toBeTruthy();
    expect(within(history).getByText('通过')).toBeTruthy();
    expect(within(history).getByText('5 分钟')).toBeTruthy();

    fireEvent.click(button(/删\s*除/, row)!);
    const dialog = (await screen.findAllByRole('dialog')).find((d) => within(d).queryByLabelText('删除原因'))!;
    fireEvent.click(within(dialog).getByRole('button', { name: /删\s*除/ }));
    await within(dialog).findByText('请输入删除原因');
    expect(mockPost).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('删除原因'), { target: { value: '重复提交' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /删\s*除/ }));
    await screen.findByText('流程实例已删除');
    expect(mockPost.mock.calls[0][1]).toEqual({ processInstanceId: '41', deleteReason: '重复提交' });
  }, 60_000);

  it('offers no delete without the code, and speaks English', async () => {
    hold('follow');
    await i18n.changeLanguage('en');
    renderScreen(<FollowScreen />);
    const row = await rowOf('41');
    expect(within(row).getByText('Running')).toBeTruthy();
    expect(screen.getAllByText('Current steps').length).toBeGreaterThan(0);
    expect(button(/Delete/, row)).toBeNull();
    expect(button(/View/, row)).toBeTruthy();
  }, 60_000);

  it('names a list it could not read', async () => {
    hold('follow');
    mockGet.mockRejectedValueOnce(new Error('down'));
    renderScreen(<FollowScreen />);
    await screen.findByText('加载失败');
  }, 60_000);
});

// The platform administrator picks tenants for a deployment.
describe('platform deployment', () => {
  it('lets the platform administrator pick tenants', async () => {
    useSession.setState({
      tenantId: '000000',
      roles: ['administrator'],
      permission: { model: true, model_deploy: true },
    });
    const base = mockGet.getMockImplementation()!;
    mockGet.mockImplementation(async (url: string, params?: object) =>
      url.endsWith('/tenant/list') ? page([{ id: '1', tenantId: '000001', tenantName: '东城' }]) : base(url, params),
    );
    renderScreen(<ModelScreen />);
    fireEvent.click(button(/部\s*署/, await rowOf('leave'))!);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('部署到租户');
    await waitFor(() => expect(mockGet.mock.calls.some(([u]) => String(u).endsWith('/tenant/list'))).toBe(true));
  }, 60_000);
});
