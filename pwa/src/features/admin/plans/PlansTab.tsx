import { Card } from '../../../components/ui/Card.tsx';
import { TabHeading } from '../components/TabHeading.tsx';

/** Placeholder until the Plans tab lands (issue 10). */
export default function PlansTab() {
  return (
    <>
      <TabHeading title="Plans" />
      <Card>
        <p className="text-stone-700 dark:text-stone-300">This part of the console is on its way.</p>
      </Card>
    </>
  );
}
