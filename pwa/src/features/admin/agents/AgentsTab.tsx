import { Card } from '../../../components/ui/Card.tsx';
import { TabHeading } from '../components/TabHeading.tsx';

/** Placeholder until the Agents tab lands (issue 10). */
export default function AgentsTab() {
  return (
    <>
      <TabHeading title="Agents" />
      <Card>
        <p className="text-stone-700 dark:text-stone-300">This part of the console is on its way.</p>
      </Card>
    </>
  );
}
