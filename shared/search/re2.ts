/** re2js, in a module of its own: the piece of script loaded once a regular expression is searched for (./matcher). */
export { RE2JS } from 're2js';
