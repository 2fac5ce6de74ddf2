// Internal entry (not in the package's `exports`; names move between releases): the access rules
// a route carries (public, roles, scopes), which auth's guards enforce and the OpenAPI generator
// describes.
export { ACCESS_PUBLIC, ACCESS_ROLES, ACCESS_SCOPES, readAccessRules, type AccessRules } from '../access/access-metadata.js';
