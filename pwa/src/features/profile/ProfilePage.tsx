import { useSession } from '../../lib/session.ts';
import { AgentProfileView } from './AgentProfileView.tsx';
import { UserProfileView } from './UserProfileView.tsx';

export default function ProfilePage() {
  const { status } = useSession();
  return status === 'agent' ? <AgentProfileView /> : <UserProfileView />;
}
