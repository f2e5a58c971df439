/**
 * The scale data set (issue 12; docs/decisions/0099): 10,000 movies, 100,000 users with subscriptions,
 * payments and ~300,000 downloads, written with set-based SQL (`INSERT … SELECT generate_series`) in one
 * transaction, so it takes seconds, not hours. Every seeded user has the same password, SEED_PASSWORD: it is
 * hashed once with the server's own argon2id and the PHC string is reused (hashing 100,000 would take hours).
 * Deterministic shapes, random details (setseed): plans nest (Basic ⊂ Standard ⊂ Premium), 60 % Kinayuganda.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrationsDir } from '../src/lib/paths.ts';

export const SEED_PASSWORD = 'filamu-scale-seed';
export const SCALE = { movies: 10_000, users: 100_000 } as const;
/** Seeded e-mail of user n (1-based): user<n>@seed.filamu.test. */
export const seedEmail = (n: number) => `user${n}@seed.filamu.test`;

export interface SeedFigures {
  seconds: number;
  counts: Record<string, number>;
}

/** Migrates the database at `url` and seeds it; refuses a database that already has users unless `force`. */
export async function seedScale(
  url: string,
  options: { force?: boolean; movies?: number; users?: number } = {},
): Promise<SeedFigures> {
  const movies = options.movies ?? SCALE.movies;
  const users = options.users ?? SCALE.users;
  const started = performance.now();
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1, migrationsDir });
  await database.prepare(async () => undefined);
  await database.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select (select count(*) from users) + (select count(*) from movies) as n`,
    );
    if (Number(rows[0]!.n) > 0 && !options.force) {
      throw new Error(
        'The database already has users or movies: seed an empty one, or pass --force to add to it (a second seed collides on its e-mails).',
      );
    }
    const passwordHash = await hashPassword(SEED_PASSWORD);
    await client.query('begin');
    await client.query('select setseed(0.42)');
    for (const statement of seedStatements(movies, users))
      await client.query(statement, statement.includes('$1') ? [passwordHash] : []);
    await client.query('commit');
    await client.query('analyze');
    const counts: Record<string, number> = {};
    for (const table of ['subscription_plans', 'movies', 'movie_plans', 'users', 'payments', 'downloads']) {
      const { rows: c } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
      counts[table] = Number(c[0]!.n);
    }
    return { seconds: (performance.now() - started) / 1000, counts };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The seed as SQL; `$1` is the shared password hash. Everything is relative to now(). */
function seedStatements(movieCount: number, userCount: number): string[] {
  const words = (list: string[]) => `array[${list.map((w) => `'${w}'`).join(',')}]`;
  const kinaFirst = words(['Omukwano', 'Ekyama', 'Olugendo', 'Amaanyi', 'Ebirooto', 'Omulembe', 'Essanyu', 'Obulamu']);
  const kinaSecond = words(['Gwa Kampala', 'Mu Kibuga', 'Ku Nnyanja', 'Ogw’omu Kyalo', 'Ekizikiza', 'Ekyewuunyo']);
  const engFirst = words(['Night', 'Silent', 'Broken', 'Last', 'Golden', 'Hidden', 'Iron', 'Red']);
  const engSecond = words(['Runner', 'Harbour', 'Promise', 'Frontier', 'Kingdom', 'Witness', 'Storm', 'Code']);
  const vjs = words(['VJ Junior', 'VJ Jingo', 'VJ Ice P', 'VJ Emmy', 'VJ Mark', 'VJ Kevo', 'VJ Soul']);
  const firstNames = words([
    'Aisha',
    'Brian',
    'Cissy',
    'Daniel',
    'Esther',
    'Faith',
    'Godfrey',
    'Hadija',
    'Isaac',
    'Joan',
  ]);
  const lastNames = words(['Nakato', 'Okello', 'Namubiru', 'Ssempala', 'Atim', 'Mugisha', 'Akello', 'Kato', 'Nabirye']);
  const pick = (list: string, n: string) => `(${list})[1 + (${n}) % array_length(${list}, 1)]`;
  return [
    // Plans: prices in UGX; every subscription of a plan ends at its global expiry, 90 days from now.
    `insert into subscription_plans (plan_name, price_ugx, description, features, display_order, global_expiry_at)
     values ('Basic', 10000, 'Kinayuganda classics', '["Kinayuganda library"]', 1, now() + interval '90 days'),
            ('Standard', 20000, 'Most of the library', '["Kinayuganda and English"]', 2, now() + interval '90 days'),
            ('Premium', 35000, 'Everything', '["The whole library"]', 3, now() + interval '90 days')`,
    // Movies over three years; 60 % Kinayuganda; 300 MB – 2.5 GB; 2 % switched off, 1 % deleted.
    `insert into movies (title, description, category, vj, s3_key, thumbnail_key, size_bytes, content_type, is_active,
                         created_at, updated_at, deleted_at)
     select case when i % 5 < 3
               then ${pick(kinaFirst, 'i')} || ' ' || ${pick(kinaSecond, 'i / 8')} || ' ' || (1 + i / 48)
               else ${pick(engFirst, 'i')} || ' ' || ${pick(engSecond, 'i / 8')} || ' ' || (1 + i / 64) end,
            case when i % 3 = 0 then null else 'A story of love, money and family in Kampala (seed ' || i || ')' end,
            case when i % 5 < 3 then 'Kinayuganda' else 'English' end,
            case when i % 5 < 3 then ${pick(vjs, 'i')} else 'N/A' end,
            'movies/' || gen_random_uuid() || '.mp4',
            case when i % 10 = 0 then null else 'thumbnails/' || gen_random_uuid() || '.jpg' end,
            (300 + floor(random() * 2200))::bigint * 1048576,
            'video/mp4',
            i % 50 <> 7,
            now() - (i::double precision / ${movieCount}) * interval '1095 days',
            now() - (i::double precision / ${movieCount}) * interval '1095 days',
            case when i % 100 = 13 then now() - interval '3 days' end
     from generate_series(1, ${movieCount}) as i`,
    // Plans nest: Premium has every movie, Standard 70 %, Basic 40 % (Kinayuganda first).
    `insert into movie_plans (movie_id, plan_id)
     select m.id, p.id from movies m cross join subscription_plans p
     where p.plan_name = 'Premium'
        or (p.plan_name = 'Standard' and abs(hashtext(m.id::text)) % 10 < 7)
        or (p.plan_name = 'Basic' and abs(hashtext(m.id::text)) % 10 < 4)`,
    // Users: 55 % subscribed now (Basic 50 %, Standard 35 %, Premium 15 %), 15 % lapsed, 30 % never paid.
    `insert into users (email, phone, full_name, password_hash, subscription_plan_id, subscription_start_date,
                        subscription_end_date, created_at, updated_at)
     select 'user' || i || '@seed.filamu.test',
            '2567' || lpad(i::text, 8, '0'),
            ${pick(firstNames, 'i')} || ' ' || ${pick(lastNames, 'i / 10')},
            $1,
            case when i % 20 < 15 then (select id from subscription_plans where plan_name =
              case when i % 20 < 7 or (i % 20 between 11 and 13) then 'Basic' when i % 20 < 10 then 'Standard' else 'Premium' end) end,
            case when i % 20 < 11 then now() - (i % 60) * interval '1 day'
                 when i % 20 < 15 then now() - interval '200 days' end,
            case when i % 20 < 11 then (select global_expiry_at from subscription_plans where plan_name =
                   case when i % 20 < 7 then 'Basic' when i % 20 < 10 then 'Standard' else 'Premium' end)
                 when i % 20 < 15 then now() - interval '110 days' end,
            now() - (i::double precision / ${userCount}) * interval '700 days',
            now() - (i::double precision / ${userCount}) * interval '700 days'
     from generate_series(1, ${userCount}) as i`,
    // One completed payment per subscription; a failed attempt for one user in five; a few still pending.
    `insert into payments (user_id, plan_id, plan_name, amount_ugx, dpo_token, dpo_trans_ref, phone, mno, status,
                           result_code, result_explanation, expires_at, next_check_at, created_at, updated_at, completed_at)
     select u.id, p.id, p.plan_name, p.price_ugx, 'SEED' || replace(gen_random_uuid()::text, '-', ''),
            'R' || (10000000 + row_number() over ()), u.phone,
            case when substr(u.phone, 5, 1) in ('0','1','2','3','4') then 'MTN' else 'AIRTEL' end,
            'completed', '000', 'Transaction paid', u.subscription_start_date + interval '15 minutes',
            u.subscription_start_date, u.subscription_start_date, u.subscription_start_date,
            u.subscription_start_date + interval '1 minute'
     from users u join subscription_plans p on p.id = u.subscription_plan_id`,
    `insert into payments (user_id, plan_id, plan_name, amount_ugx, dpo_token, phone, mno, status, result_code,
                           result_explanation, expires_at, next_check_at, created_at, updated_at)
     select u.id, p.id, p.plan_name, p.price_ugx, 'SEED' || replace(gen_random_uuid()::text, '-', ''), u.phone, 'MTN',
            case when n % 50 = 0 then 'pending' when n % 7 = 0 then 'expired' else 'failed' end,
            case when n % 50 = 0 then null when n % 7 = 0 then '903' else '901' end,
            case when n % 50 = 0 then null when n % 7 = 0 then 'Transaction expired' else 'Transaction declined' end,
            case when n % 50 = 0 then now() + interval '10 minutes' else u.created_at + interval '15 minutes' end,
            case when n % 50 = 0 then now() + interval '1 minute' else u.created_at end,
            case when n % 50 = 0 then now() - interval '5 minutes' else u.created_at end,
            case when n % 50 = 0 then now() - interval '5 minutes' else u.created_at end
     from (select id, phone, created_at, row_number() over (order by created_at) as n from users) u
     join subscription_plans p on p.plan_name = 'Standard'
     where u.n % 5 = 0`,
    // Downloads by everyone who has paid: 0–11 each (mean ≈ 3.8), popular movies far more often (cubic skew
    // towards the newest); 80 % completed, the rest paused, failed or in progress. One row per person and movie.
    `create temporary table seed_movies on commit drop as
       select id, size_bytes, row_number() over (order by created_at desc) - 1 as n from movies where deleted_at is null`,
    `insert into downloads (user_id, movie_id, status, downloaded_bytes, total_bytes, resumed_count, created_at,
                            updated_at, last_activity_at, completed_at)
     select distinct on (d.user_id, m.id) d.user_id, m.id,
            case when d.r < 0.80 then 'completed' when d.r < 0.92 then 'paused' when d.r < 0.97 then 'failed' else 'downloading' end,
            case when d.r < 0.80 then m.size_bytes else floor(m.size_bytes * d.r * 0.9)::bigint end,
            m.size_bytes, floor(d.r * 4)::int, d.at, d.at, d.at, case when d.r < 0.80 then d.at + interval '40 minutes' end
     from (select u.id as user_id, random() as r, random() as pick,
                  u.subscription_start_date + random() * (least(now(), u.subscription_end_date) - u.subscription_start_date) as at
           from users u
           -- The count comes from the user's id: a lateral call that does not refer to u runs only once.
           cross join lateral generate_series(1, floor(power((abs(hashtext(u.id::text)) % 1000) / 1000.0, 1.8) * 12)::int) as k
           where u.subscription_start_date is not null) d
     join seed_movies m on m.n = floor(power(d.pick, 3) * (select count(*) from seed_movies))::bigint`,
  ];
}
