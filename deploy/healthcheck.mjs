// The image's HEALTHCHECK: GET /api/health/ready on this container's own port; exit 0 only on 200.
const port = process.env.PORT || '8080';
try {
  const response = await fetch(`http://127.0.0.1:${port}/api/health/ready`, { signal: AbortSignal.timeout(2500) });
  process.exit(response.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
