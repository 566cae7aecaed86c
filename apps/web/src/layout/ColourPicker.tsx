import { useState } from 'react';
import { ColorPicker } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_COLOUR } from '@atrium/contract';
import { useSettings } from '../stores/settings';

export default function ColourPicker() {
  const { t } = useTranslation();
  const { colour, setColour } = useSettings();
  const [open, setOpen] = useState(true);
  return (
    <ColorPicker
      size="small"
      open={open}
      onOpenChange={setOpen}
      value={colour}
      onChangeComplete={(c) => setColour(c.toHexString())}
      presets={[
        {
          label: t('header.colour'),
          colors: [DEFAULT_COLOUR, '#1677ff', '#13c2c2', '#52c41a', '#faad14', '#f5222d', '#722ed1', '#eb2f96'],
        },
      ]}
    />
  );
}
