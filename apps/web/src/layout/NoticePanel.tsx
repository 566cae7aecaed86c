import { useState } from 'react';
import { App, Avatar, List, Pagination, Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE } from '@atrium/contract';

/** Spec §2: hard-coded demo notifications. status 0 未开始 / 1 进行中 / 3 已完成 / 4 紧急. */
type Item = { img: string; title: string; subtitle: string; tag: string; status: 0 | 1 | 3 | 4 };
const avatar = (c: string) =>
  `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><circle cx="16" cy="16" r="16" fill="${c}"/></svg>`)}`;
const SAMPLE: Item[] = [
  { img: avatar('#409EFF'), title: '设备巡检计划已下发', subtitle: '2 小时前', tag: '未开始', status: 0 },
  { img: avatar('#67C23A'), title: '客户审批：新注册客户待审核', subtitle: '昨天', tag: '进行中', status: 1 },
  { img: avatar('#909399'), title: 'NVR 通道同步完成', subtitle: '3 天前', tag: '已完成', status: 3 },
  { img: avatar('#F56C6C'), title: '摄像机离线告警', subtitle: '刚刚', tag: '紧急', status: 4 },
];
const COLOUR: Record<Item['status'], string> = { 0: 'default', 1: 'processing', 3: 'success', 4: 'error' };

function NoticeList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [items, setItems] = useState(SAMPLE);
  const [page, setPage] = useState(1);
  const onPage = (p: number) => {
    setPage(p);
    message.success(t('notice.page', { page: p }));
    // Demo behaviour of spec §2: more sample entries arrive after one second.
    setTimeout(
      () => setItems((list) => [...list, ...SAMPLE.map((s) => ({ ...s, title: `${s.title} (${p})` }))]),
      NOTICE.pageDelayMs,
    );
  };
  return (
    <>
      <div style={{ height: NOTICE.listHeight, overflow: 'auto' }}>
        <List
          dataSource={items}
          renderItem={(it, i) => (
            <List.Item key={i} extra={<Tag color={COLOUR[it.status]}>{it.tag}</Tag>}>
              <List.Item.Meta avatar={<Avatar src={it.img} />} title={it.title} description={it.subtitle} />
            </List.Item>
          )}
        />
      </div>
      <Pagination
        simple
        size="small"
        current={page}
        total={50}
        onChange={onPage}
        style={{ marginTop: 8, textAlign: 'center' }}
      />
    </>
  );
}

export default function NoticePanel() {
  const { t } = useTranslation();
  return (
    <div style={{ width: NOTICE.width }}>
      <Tabs
        items={[
          { key: 'mail', label: `${t('notice.mail')}(1)`, children: <NoticeList /> },
          { key: 'message', label: `${t('notice.message')}(2)`, children: <NoticeList /> },
          { key: 'notice', label: t('notice.notice'), children: <NoticeList /> },
        ]}
      />
    </div>
  );
}
