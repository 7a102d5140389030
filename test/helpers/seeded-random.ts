/** A small seeded generator (mulberry32), so generated test inputs are the same every run. */
export { seededRandom } from '../../scripts/seeded-random.mjs';
