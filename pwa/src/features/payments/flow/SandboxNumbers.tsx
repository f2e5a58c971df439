/** The sandbox's outcomes, decided by a number's last digit (as the payments sandbox table in docs/configuration.md says). */
const OUTCOMES: Array<{ digit: string; outcome: string }> = [
  { digit: '1', outcome: 'declined' },
  { digit: '2', outcome: 'never paid, then expired' },
  { digit: '3', outcome: 'cancelled' },
  { digit: '4', outcome: 'wrong amount, held for review' },
  { digit: 'other', outcome: 'paid' },
];

/**
 * Shown on the payment screen only while the server pays through its built-in DPO simulator, so a tester sees which
 * number gives which outcome where they type it (decision 0182). No money moves.
 */
export function SandboxNumbers() {
  return (
    <section
      aria-labelledby="sandbox-numbers"
      className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <h3 id="sandbox-numbers" className="font-bold">
        Test payments — no real money
      </h3>
      <p className="mt-1">
        The last digit of the number decides, a few seconds after the prompt (MTN 0772 000 005, Airtel 0752 000 005):
      </p>
      <ul className="mt-1 grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        {OUTCOMES.map((o) => (
          <li key={o.digit}>
            <span className="font-mono font-semibold">{o.digit === 'other' ? 'other' : `…${o.digit}`}</span> →{' '}
            {o.outcome}
          </li>
        ))}
      </ul>
    </section>
  );
}
