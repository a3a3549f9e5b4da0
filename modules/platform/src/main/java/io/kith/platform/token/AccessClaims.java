package io.kith.platform.token;

/**
 * What a verified access token says: the user, the session it belongs to, and when it expires.
 *
 * @param userId    the user id ({@code sub})
 * @param sessionId the session id ({@code sid}); revoking the session invalidates the token
 * @param expiresAt expiry in epoch seconds ({@code exp})
 */
public record AccessClaims(long userId, String sessionId, long expiresAt) {
}
