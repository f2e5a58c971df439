/**
 * What the demo seeder puts into a Filamu instance: two plans, a small library, one agent and one
 * subscriber. Titles, emails and plan names double as identities: the seeder looks them up before
 * creating anything, so running it again never duplicates.
 */
import type { MovieCategoryName, MovieRating } from '@filamu/shared';

export type DemoPlanName = 'Basic' | 'Premium';

export interface DemoPlan {
  name: DemoPlanName;
  priceUgx: number;
  description: string;
  features: string[];
  /** How far ahead of today its global expiry is set. */
  validDays: number;
  displayOrder: number;
}

export const DEMO_PLANS: readonly DemoPlan[] = [
  {
    name: 'Basic',
    priceUgx: 10_000,
    description: 'All Kinayuganda movies and a taste of the English library.',
    features: ['Every Kinayuganda (VJ-translated) movie', 'Selected English movies', 'Download on one phone'],
    validDays: 30,
    displayOrder: 1,
  },
  {
    name: 'Premium',
    priceUgx: 25_000,
    description: 'The whole library for a year.',
    features: ['Every Kinayuganda (VJ-translated) movie', 'Every English movie', 'New releases as they land'],
    validDays: 365,
    displayOrder: 2,
  },
];

export interface DemoMovie {
  title: string;
  description: string;
  category: MovieCategoryName;
  /** The VJ who translated it; English movies name their uploader (the API requires one). */
  vj: string;
  rating: MovieRating;
  /** Gradient of the poster and the clip, top colour then bottom colour. */
  palette: readonly [top: string, bottom: string];
  /** Clip length at full size; the test shortens every clip. */
  seconds: number;
  plans: readonly DemoPlanName[];
}

const BOTH: readonly DemoPlanName[] = ['Basic', 'Premium'];
const PREMIUM_ONLY: readonly DemoPlanName[] = ['Premium'];
const ENGLISH_UPLOADER = 'Filamu Originals';

/** Every Kinayuganda movie and two English ones are in Basic; Premium has them all. */
export const DEMO_MOVIES: readonly DemoMovie[] = [
  {
    title: 'Shadow of the Dragon',
    description: 'A retired kung fu master returns to his village to face the gang that burned his school.',
    category: 'Kinayuganda',
    vj: 'VJ Junior',
    rating: '13',
    palette: ['#8e1b1b', '#1b1b3a'],
    seconds: 8,
    plans: BOTH,
  },
  {
    title: 'The Last Warrior',
    description: 'One soldier holds a mountain pass for three days so that his people can cross the river.',
    category: 'Kinayuganda',
    vj: 'VJ Emmy',
    rating: '13',
    palette: ['#2f5d3a', '#0e1f14'],
    seconds: 7,
    plans: BOTH,
  },
  {
    title: 'Jungle Commando',
    description: 'A rescue team drops into the rainforest to bring back a kidnapped doctor before the rains.',
    category: 'Kinayuganda',
    vj: 'VJ Jingo',
    rating: '13',
    palette: ['#4f7a28', '#1c2b10'],
    seconds: 6,
    plans: BOTH,
  },
  {
    title: 'Kampala Express',
    description: 'A courier with one delivery left races across the city while everyone wants his parcel.',
    category: 'Kinayuganda',
    vj: 'VJ Ice P',
    rating: 'pg',
    palette: ['#d4721c', '#3a1a05'],
    seconds: 7,
    plans: BOTH,
  },
  {
    title: 'Iron Fist Returns',
    description: 'Twin brothers separated as boys meet again in the final of an underground tournament.',
    category: 'Kinayuganda',
    vj: 'VJ Mark',
    rating: '18',
    palette: ['#5a5a66', '#14141a'],
    seconds: 6,
    plans: BOTH,
  },
  {
    title: 'Lake Victoria Sunrise',
    description: 'A fisherman and his daughter rebuild their boat, and their lives, after a storm.',
    category: 'English',
    vj: ENGLISH_UPLOADER,
    rating: 'all',
    palette: ['#f2a65a', '#1d4e89'],
    seconds: 8,
    plans: BOTH,
  },
  {
    title: 'Boda Boda Diaries',
    description: 'A week in the life of three riders, one broken mirror and a very lost wedding cake.',
    category: 'English',
    vj: ENGLISH_UPLOADER,
    rating: 'pg',
    palette: ['#f6d743', '#7a3e00'],
    seconds: 6,
    plans: BOTH,
  },
  {
    title: 'Mountains of the Moon',
    description: 'Four friends set out to reach the Rwenzori glaciers before they are gone.',
    category: 'English',
    vj: ENGLISH_UPLOADER,
    rating: 'all',
    palette: ['#a8d8ea', '#2b3a55'],
    seconds: 7,
    plans: PREMIUM_ONLY,
  },
];

export const DEMO_AGENT = {
  fullName: 'Demo Agent',
  email: 'agent@filamu.local',
  phone: '0701000123',
} as const;

export const DEMO_SUBSCRIBER = {
  fullName: 'Demo Subscriber',
  email: 'demo@filamu.local',
  phone: '0772000123',
  password: 'demo-password-123',
  plan: 'Basic' satisfies DemoPlanName,
} as const;
