// A tool, not production code: the demo's content in the order a newcomer meets it.
/**
 * `npx pnpm@10 demo`: fills a Filamu instance with demo content (plans, movies, an agent, a
 * subscriber) so a newcomer can try the whole flow in minutes.
 *
 * The seeder is just another API client: the embedded PGlite database belongs to the one server
 * process, so everything goes through HTTP, and files through real signed upload links. Videos and
 * posters are generated here (pure TypeScript), so it needs no ffmpeg and no network; with ffmpeg the clips are
 * scaled to 720p with grain (media/ladder-source.ts), so the server makes every size of them.
 */
import { randomBytes } from 'node:crypto';
import { type AdminMovie, type AdminPlan, contracts, dateToKampalaLocal, formatBytes, formatUgx } from '@filamu/shared';
import { ApiClient, DemoStepError, uploadObject } from './client.ts';
import {
  DEMO_AGENT,
  DEMO_MOVIES,
  DEMO_PLANS,
  DEMO_SUBSCRIBER,
  type DemoMovie,
  type DemoPlan,
  type DemoPlanName,
} from './catalogue.ts';
import { generateDemoMovie, generateDemoThumbnail, hexToRgb } from './media/index.ts';
import { ladderSourceMovie } from './media/ladder-source.ts';
import { reportSizes } from './sizes.ts';

const DAY_MS = 86_400_000;

type Log = (line: string) => void;

export interface SeedOptions {
  baseUrl: string;
  admin: { email: string; password: string };
  /**
   * Overrides every clip's length and frame rate (the test asks for very short clips); `ladder` makes them 720p with
   * ffmpeg when it is here, so the server's sizes (Small, Standard, HD) are all made (the CLI asks for it).
   */
  media?: { seconds?: number; fps?: number; ladder?: boolean };
  /** Waits this long for the server's sizes of new movies, printing them (0: do not wait). */
  waitForSizesMs?: number;
  /** The server's "now", for plan expiries and "is the subscription in force"; the real time by default. */
  now?: Date;
  /** One line per step (the CLI prints them; the test stays quiet). */
  log?: Log;
}

type PlanStatus = 'created' | 'existing' | 'renewed';

/** Progress-line prefixes: created, already there, brought back. */
const MARK: Record<PlanStatus, string> = { created: '+', existing: '=', renewed: '~' };

interface SeededPlan {
  id: string;
  name: DemoPlanName;
  priceUgx: number;
  /** Kampala local `YYYY-MM-DDThh:mm`. */
  expiry: string;
  status: PlanStatus;
}

interface SeededMovie {
  id: string;
  title: string;
  category: DemoMovie['category'];
  vj: string;
  size: number;
  plans: DemoPlanName[];
  created: boolean;
}

export interface DemoSummary {
  url: string;
  admin: { email: string };
  plans: SeededPlan[];
  movies: SeededMovie[];
  /** The password is always usable: a new agent's generated one, or a fresh reset for an existing agent. */
  agent: { id: string; email: string; password: string; created: boolean };
  subscriber: {
    id: string;
    email: string;
    password: string;
    created: boolean;
    plan: DemoPlanName;
    /** Whether this run put the subscriber on the plan (false: it already was, in force). */
    subscribed: boolean;
  };
}

/** Seeds the server at `baseUrl`; anything already there (matched by title, name or email) is kept. */
export async function seedDemo(options: SeedOptions): Promise<DemoSummary> {
  const url = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? new Date();
  const log = options.log ?? (() => {});
  const api = new ApiClient(url);
  await signInAdmin(api, options.admin);
  const plans = await ensurePlans(api, now, log);
  const movies = await ensureMovies(api, plans, options.media ?? {}, log);
  const agent = await ensureAgent(api, log);
  const subscriber = await ensureSubscriber(api, url, plans, now, log);
  const fresh = movies.filter((m) => m.created).map((m) => m.id);
  if (options.waitForSizesMs && fresh.length > 0) await reportSizes(api, fresh, log, options.waitForSizesMs);
  return { url, admin: { email: options.admin.email }, plans, movies, agent, subscriber };
}

async function signInAdmin(api: ApiClient, admin: SeedOptions['admin']): Promise<void> {
  // A device id of its own: the admin's other sessions end (one device at a time), the CLI says so.
  const deviceId = `filamu-demo-seeder-${randomBytes(4).toString('hex')}`;
  const { token, user } = await api.call('Signing the admin in', contracts.auth.login, {
    body: { identifier: admin.email, password: admin.password, currentDeviceId: deviceId },
  });
  if (!user.isAdmin) throw new DemoStepError('Signing the admin in', null, null, `${admin.email} is not an admin`);
  api.signIn({ token, deviceId });
}

// ---------- plans ----------

const kampalaLocalDaysAhead = (now: Date, days: number) => dateToKampalaLocal(new Date(now.getTime() + days * DAY_MS));

/** A plan movies can be attached to and subscribers put on. */
const isUsable = (plan: AdminPlan, now: Date) => plan.is_active && new Date(plan.expires_at) > now;

async function ensurePlans(api: ApiClient, now: Date, log: Log): Promise<SeededPlan[]> {
  const { plans: existing } = await api.call('Listing plans', contracts.plans.adminListPlans, {});
  const seeded: SeededPlan[] = [];
  for (const demo of DEMO_PLANS) {
    const found = existing.find((plan) => plan.plan_name.toLowerCase() === demo.name.toLowerCase());
    const { plan, status } = await ensurePlan(api, demo, found, now);
    log(`  ${MARK[status]} plan ${plan.plan_name}: ${formatUgx(plan.price_ugx)}, until ${plan.global_expiry_date}`);
    seeded.push({ id: plan.id, name: demo.name, priceUgx: plan.price_ugx, expiry: plan.global_expiry_date, status });
  }
  return seeded;
}

async function ensurePlan(
  api: ApiClient,
  demo: DemoPlan,
  found: AdminPlan | undefined,
  now: Date,
): Promise<{ plan: AdminPlan; status: PlanStatus }> {
  if (found && isUsable(found, now)) return { plan: found, status: 'existing' };
  const global_expiry_date = kampalaLocalDaysAhead(now, demo.validDays);
  if (found) {
    // A demo plan that expired or was switched off since the last run: bring it back so the demo works.
    const { plan } = await api.call(`Renewing plan ${demo.name}`, contracts.plans.adminUpdatePlan, {
      params: { id: found.id },
      body: { is_active: true, global_expiry_date },
    });
    return { plan, status: 'renewed' };
  }
  const { plan } = await api.call(`Creating plan ${demo.name}`, contracts.plans.adminCreatePlan, {
    body: {
      plan_name: demo.name,
      price_ugx: demo.priceUgx,
      description: demo.description,
      features: demo.features,
      display_order: demo.displayOrder,
      global_expiry_date,
    },
  });
  return { plan, status: 'created' };
}

// ---------- movies ----------

async function ensureMovies(
  api: ApiClient,
  plans: SeededPlan[],
  media: NonNullable<SeedOptions['media']>,
  log: Log,
): Promise<SeededMovie[]> {
  const { movies: existing } = await api.call('Listing movies', contracts.movies.adminListMovies, {});
  const byTitle = new Map(existing.map((movie) => [movie.title.toLowerCase(), movie]));
  const planNameOf = new Map(plans.map((plan) => [plan.id, plan.name]));
  const seeded: SeededMovie[] = [];
  for (const demo of DEMO_MOVIES) {
    const found = byTitle.get(demo.title.toLowerCase());
    if (found) {
      log(`  ${MARK.existing} ${describeMovie(demo, found.size)} already there`);
      const planNames = found.plan_ids.flatMap((id) => planNameOf.get(id) ?? []);
      seeded.push(seededMovie(found, planNames, false));
      continue;
    }
    seeded.push(await addMovie(api, demo, plans, media, log));
  }
  return seeded;
}

/** The clip and poster of a demo movie; the same movie and settings always give the same bytes. */
export function renderDemoMedia(demo: DemoMovie, media: SeedOptions['media'] = {}) {
  const art = {
    title: demo.title,
    subtitle: demo.category === 'Kinayuganda' ? demo.vj : 'English',
    palette: [hexToRgb(demo.palette[0]), hexToRgb(demo.palette[1])] as const,
  };
  const clip = { ...art, seconds: media.seconds ?? demo.seconds, fps: media.fps ?? 8 };
  const ladder = media.ladder ? ladderSourceMovie(clip) : null;
  return {
    video: ladder
      ? { bytes: ladder, contentType: 'video/mp4' as const, extension: 'mp4' as const }
      : generateDemoMovie(clip),
    poster: generateDemoThumbnail(art),
  };
}

async function addMovie(
  api: ApiClient,
  demo: DemoMovie,
  plans: SeededPlan[],
  media: NonNullable<SeedOptions['media']>,
  log: Log,
): Promise<SeededMovie> {
  const started = performance.now();
  const { video, poster } = renderDemoMedia(demo, media);
  const slug = demo.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');

  const step = `Uploading "${demo.title}"`;
  const thumbnailS3Key = await uploadObject(api, step, 'thumbnails', {
    fileName: `${slug}.png`,
    contentType: 'image/png',
    bytes: poster,
  });
  const movieS3Key = await uploadObject(api, step, 'movies', {
    fileName: `${slug}.${video.extension}`,
    contentType: video.contentType,
    bytes: video.bytes,
  });
  const planIds = plans.filter((plan) => demo.plans.includes(plan.name)).map((plan) => plan.id);
  const { movie } = await api.call(`Saving "${demo.title}"`, contracts.movies.adminCreateMovie, {
    body: {
      title: demo.title,
      description: demo.description,
      vj: demo.vj,
      category: demo.category,
      rating: demo.rating,
      movieS3Key,
      thumbnailS3Key,
      size: video.bytes.length,
      planIds,
    },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(`  ${MARK.created} ${describeMovie(demo, movie.size)} generated and uploaded in ${seconds} s`);
  return seededMovie(movie, [...demo.plans], true);
}

const seededMovie = (movie: AdminMovie, plans: DemoPlanName[], created: boolean): SeededMovie => ({
  id: movie.id,
  title: movie.title,
  category: movie.category,
  vj: movie.vj,
  size: movie.size,
  plans,
  created,
});

const describeMovie = (demo: DemoMovie, size: number) =>
  `${demo.title.padEnd(22)} ${demo.category.padEnd(11)} ${demo.vj.padEnd(16)} ${formatBytes(size).padStart(8)}`;

// ---------- agent ----------

async function ensureAgent(api: ApiClient, log: Log): Promise<DemoSummary['agent']> {
  const { agents } = await api.call('Listing agents', contracts.agents.listAgents, {});
  const found = agents.find((agent) => agent.email.toLowerCase() === DEMO_AGENT.email);
  if (!found) {
    const body = {
      full_name: DEMO_AGENT.fullName,
      phone: DEMO_AGENT.phone,
      email: DEMO_AGENT.email,
      send_credentials_via: 'none' as const,
    };
    const { agent, generatedPassword } = await api.call('Creating the agent', contracts.agents.createAgent, { body });
    log(`  ${MARK.created} agent ${agent.email}`);
    return { id: agent.id, email: agent.email, password: generatedPassword, created: true };
  }
  if (!found.is_active) {
    await api.call('Reactivating the agent', contracts.agents.updateAgent, {
      params: { id: found.id },
      body: { is_active: true },
    });
  }
  // Its password was shown once, when it was created: a fresh one keeps the summary usable.
  const { newPassword } = await api.call('Resetting the agent password', contracts.agents.resetAgentPassword, {
    params: { id: found.id },
    body: { send_credentials_via: 'none' },
  });
  log(`  ${MARK.existing} agent ${found.email} already there: password reset`);
  return { id: found.id, email: found.email, password: newPassword, created: false };
}

// ---------- subscriber ----------

async function ensureSubscriber(
  api: ApiClient,
  url: string,
  plans: SeededPlan[],
  now: Date,
  log: Log,
): Promise<DemoSummary['subscriber']> {
  const plan = plans.find((candidate) => candidate.name === DEMO_SUBSCRIBER.plan);
  if (!plan) throw new Error(`The catalogue has no ${DEMO_SUBSCRIBER.plan} plan`);
  const { subscribers } = await api.call('Listing subscribers', contracts.subscribers.listSubscribers, {});
  const found = subscribers.find((subscriber) => subscriber.email.toLowerCase() === DEMO_SUBSCRIBER.email);
  const id = found?.id ?? (await registerSubscriber(url));
  log(`  ${found ? MARK.existing : MARK.created} subscriber ${DEMO_SUBSCRIBER.email}`);

  const inForce =
    found?.subscription_plan_id === plan.id &&
    found.subscription_end_date !== null &&
    new Date(found.subscription_end_date) > now;
  if (!inForce) {
    const { message } = await api.call(
      `Subscribing ${DEMO_SUBSCRIBER.email} to ${plan.name}`,
      contracts.subscribers.manageSubscription,
      { params: { id }, body: { action: 'activate_extend', subscription_plan_id: plan.id } },
    );
    log(`  ${MARK.created} ${plan.name} subscription: ${message}`);
  }
  const { email, password } = DEMO_SUBSCRIBER;
  return { id, email, password, created: !found, plan: plan.name, subscribed: !inForce };
}

/** Registers the demo subscriber on a client of its own (registration is public); returns its id. */
async function registerSubscriber(url: string): Promise<string> {
  const visitor = new ApiClient(url);
  const { user } = await visitor.call('Registering the demo subscriber', contracts.auth.register, {
    body: {
      email: DEMO_SUBSCRIBER.email,
      password: DEMO_SUBSCRIBER.password,
      fullName: DEMO_SUBSCRIBER.fullName,
      phone: DEMO_SUBSCRIBER.phone,
    },
  });
  return user.id;
}
