export { listSearch } from './listSearch';
