// `/settings`: the sections to choose from.
import { SectionList } from './SectionList';
import './settings.css';

export function Component() {
  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <SectionList />
    </section>
  );
}
