import type { SiteSpec } from './types.js';

/** Real places on five continents with their standard-time UTC offsets (seconds). */
export const CITIES: readonly SiteSpec[] = [
  { city: 'Hamburg', country: 'Germany', lat: 53.5511, lon: 9.9937, tzOffset: 3600 },
  { city: 'Munich', country: 'Germany', lat: 48.1351, lon: 11.582, tzOffset: 3600 },
  { city: 'Seville', country: 'Spain', lat: 37.3891, lon: -5.9845, tzOffset: 3600 },
  { city: 'Athens', country: 'Greece', lat: 37.9838, lon: 23.7275, tzOffset: 7200 },
  { city: 'Nairobi', country: 'Kenya', lat: -1.2921, lon: 36.8219, tzOffset: 10800 },
  { city: 'Lagos', country: 'Nigeria', lat: 6.5244, lon: 3.3792, tzOffset: 3600 },
  { city: 'Cape Town', country: 'South Africa', lat: -33.9249, lon: 18.4241, tzOffset: 7200 },
  { city: 'Cairo', country: 'Egypt', lat: 30.0444, lon: 31.2357, tzOffset: 7200 },
  { city: 'Dubai', country: 'United Arab Emirates', lat: 25.2048, lon: 55.2708, tzOffset: 14400 },
  { city: 'Jaipur', country: 'India', lat: 26.9124, lon: 75.7873, tzOffset: 19800 },
  { city: 'Yangon', country: 'Myanmar', lat: 16.8409, lon: 96.1735, tzOffset: 23400 },
  { city: 'Bangkok', country: 'Thailand', lat: 13.7563, lon: 100.5018, tzOffset: 25200 },
  { city: 'Shenzhen', country: 'China', lat: 22.5431, lon: 114.0579, tzOffset: 28800 },
  { city: 'Osaka', country: 'Japan', lat: 34.6937, lon: 135.5023, tzOffset: 32400, gridHz: 60, gridV: 202 },
  { city: 'Perth', country: 'Australia', lat: -31.9505, lon: 115.8605, tzOffset: 28800 },
  { city: 'Brisbane', country: 'Australia', lat: -27.4698, lon: 153.0251, tzOffset: 36000 },
  { city: 'Phoenix', country: 'United States', lat: 33.4484, lon: -112.074, tzOffset: -25200, gridHz: 60, gridV: 240 },
  { city: 'Monterrey', country: 'Mexico', lat: 25.6866, lon: -100.3161, tzOffset: -21600, gridHz: 60, gridV: 220 },
  { city: 'São Paulo', country: 'Brazil', lat: -23.5505, lon: -46.6333, tzOffset: -10800, gridHz: 60, gridV: 220 },
  { city: 'Santiago', country: 'Chile', lat: -33.4489, lon: -70.6693, tzOffset: -14400 },
];
