package io.kith.platform.bus;

/** Event-bus addresses and headers shared by the gateway, the bridges and the domains. */
public final class Addresses {

  /** Prefix of a user's real-time address; every node holding a bridge connection of the user forwards it. */
  public static final String USER_PREFIX = "kith.user.";
  /** Prefix of a room's real-time address (a chat group, a whiteboard). */
  public static final String ROOM_PREFIX = "kith.room.";
  /** Published when sessions are revoked: {@code {"user": id, "sessions": [sid...]}}. */
  public static final String SESSIONS_REVOKED = "kith.sessions.revoked";
  /**
   * Published cluster-wide when users lose a room (kicked from or left a group, removed from a board, the group
   * dissolved): {@code {"room": "<roomId>", "users": [id...]}}. Every bridge stops delivering that room's messages to
   * those users' connections at once, even though their registrations stay; registering again asks the room's owner
   * module anew.
   */
  public static final String ROOMS_REVOKED = "kith.rooms.revoked";
  /** Bridge-reachable address answering with the caller's verified user id. */
  public static final String BRIDGE_WHOAMI = "kith.bridge.whoami";
  /**
   * Header the bridges set on every inbound client message to the verified sender's user id (any client-supplied
   * value is replaced). Services reached from the bridge take the acting user from here, never from the body.
   */
  public static final String SENDER_HEADER = "kith-sender";

  private Addresses() {
  }

  /** The real-time address of {@code userId}. */
  public static String user(long userId) {
    return USER_PREFIX + userId;
  }

  /** The real-time address of room {@code roomId}. */
  public static String room(String roomId) {
    return ROOM_PREFIX + roomId;
  }
}
