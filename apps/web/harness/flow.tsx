/**
 * Test-only harness (docs/workflow.md "Diagram components"): mounts the modeler and the viewer for screenshots in
 * the Vite dev server (`/harness/flow.html?lang=en`). Not part of the product build (its input is index.html only).
 */
import { createRoot } from 'react-dom/client';
import { useState } from 'react';
import i18n from '../src/i18n';
import { FlowModeler, FlowViewer } from '../src/features/flow';
import { sampleXml } from './sample';

const params = new URLSearchParams(location.search);
void i18n.changeLanguage(params.get('lang') === 'en' ? 'en' : 'zh');

function Harness() {
  const [saved, setSaved] = useState('');
  const [changes, setChanges] = useState(0);
  const blank = params.get('blank') === '1';
  return (
    <div style={{ padding: 16, display: 'grid', gap: 16 }}>
      <FlowModeler
        xml={blank ? '' : sampleXml}
        onSave={(x) => setSaved(x)}
        onChange={() => setChanges((n) => n + 1)}
        height={560}
      />
      <pre id="changes" style={{ display: 'none' }}>
        {changes}
      </pre>
      <button
        id="switch"
        style={{ justifySelf: 'start' }}
        onClick={() => void i18n.changeLanguage(i18n.language === 'en' ? 'zh' : 'en')}
      >
        zh / en
      </button>
      <pre id="saved" style={{ display: 'none' }}>
        {saved}
      </pre>
      <FlowViewer
        xml={sampleXml}
        doneIds={['start', 'f1', 'manager', 'f2', 'g1', 'f3']}
        currentIds={['hr']}
        height={320}
      />
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<Harness />);
