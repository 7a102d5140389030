export { t } from '../run-scope.js';
