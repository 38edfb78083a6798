// What the sign-in page says for each ?error= code next-auth or our checks send there.

export const SIGN_IN_ERROR_MESSAGES: Record<string, string> = {
  CredentialsSignin: "That email and password do not match an active account.",
  TooManyAttempts: "Too many failed sign-ins for this account or address; wait 15 minutes and try again.",
  OidcEmailMissing: "Your identity provider did not share an e-mail address; ask it to release the email scope.",
  OidcEmailUnverified: "Your identity provider has not verified your e-mail address; verify it there first.",
  OidcDomainNotAllowed:
    "Single sign-on is not open to your e-mail domain here; ask an admin to add it to OIDC_ALLOWED_DOMAINS.",
  OidcLinkRequired:
    "An account with this e-mail already signs in with a password. Sign in with the password, then link single sign-on from your account page.",
  AccountDisabled: "This account is disabled; ask an admin.",
  AccessDenied: "This sign-in was refused.",
};

export const signInErrorMessage = (code: string | null | undefined) =>
  code ? (SIGN_IN_ERROR_MESSAGES[code] ?? "Signing in did not work; try again, or ask an admin.") : null;
