import { useTranslation } from 'react-i18next';
import { fieldType, type InputProps } from './fieldTypes';

export { DATE_FORMAT, DAY_FORMAT } from './formats';

/** The control of a field, from the field-type registry; Form.Item injects id, value and onChange. */
export default function FieldInput(props: Omit<InputProps, 'placeholder'>) {
  const { t } = useTranslation();
  const type = fieldType(props.f);
  const Control = (props.search && type.search) || type.input;
  // Placeholders are hints for entering a record, not for searching.
  const placeholder = props.f.placeholder && !props.search ? t(props.f.placeholder) : undefined;
  return <Control {...props} placeholder={placeholder} />;
}
