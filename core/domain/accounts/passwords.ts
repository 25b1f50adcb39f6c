/** A new password has at least this many characters: the server refuses a shorter one, the forms say so first. */
export const PASSWORD_MIN = 10;
