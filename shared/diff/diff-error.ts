/** A profile cannot be compared with the other (units that do not convert, bad weights). */
export class DiffError extends Error {}
