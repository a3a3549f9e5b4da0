package io.kith.push.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A user's push targets (the devices and browsers that push reaches while the app is closed) and push preferences.
 *
 * <p>Every method takes the acting user first and works on that user's targets only: another user's target id is
 * answered exactly like an unknown one ({@link PushTargetsErrors#TARGET_NOT_FOUND}).
 *
 * <p><b>Target</b> (registration): {@code {kind: apns|fcm|webpush, token?, topic?, sandbox?, endpoint?, keys?:
 * {p256dh, auth}}}: {@code apns} takes {@code token} (hex, 64..200 characters), optional {@code topic} (the app's
 * bundle id) and {@code sandbox} (default false); {@code fcm} takes {@code token} (1..4,096 characters);
 * {@code webpush} takes the subscription's {@code endpoint} (an https URL) and {@code keys.p256dh} (a P-256 public
 * key, uncompressed point, base64url) and {@code keys.auth} (16 bytes, base64url). Bad input fails with
 * {@code validation_failed} naming the field.
 *
 * <p><b>Preferences</b>: {@code {kinds_off: [notification types], quiet_hours: {start: "HH:MM", end: "HH:MM",
 * time_zone: "<IANA zone>"} | null, previews: bool}}: the types that do not push, the hours (in the user's zone,
 * across midnight when {@code end} is earlier) without pushes, and whether a message push shows the message's text
 * ({@code false}: "New message"). Muted users and types are the notifications module's preferences: what they stop
 * never becomes a notification, so it never pushes.
 *
 * <p><b>Target view</b>: {@code {id, kind, created_at, token? | endpoint?, topic?, sandbox?}}: what the client sent
 * bar the Web Push keys, which are never echoed.
 */
@ProxyGen
@VertxGen
public interface PushTargetsService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.push.targets";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static PushTargetsService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, PushTargetsService.class, ADDRESS);
  }

  /**
   * Registers a target for the actor's session {@code sessionId} (the access token's session, filled by the gateway)
   * and answers its view. The same token (or Web Push endpoint) again answers the same target, now belonging to this
   * session (and to this user, if another user of the same device registered it before). A user holds at most
   * {@code push.max-targets-per-user}; a new one beyond that fails with {@link PushTargetsErrors#TARGETS_LIMIT}.
   * When the session ends (logout, revocation) its targets are removed.
   */
  Future<JsonObject> register(long actor, String sessionId, JsonObject target);

  /** The actor's targets, newest first: {@code {items: [target views]}}. */
  Future<JsonObject> list(long actor);

  /** Removes one of the actor's targets; another user's or an unknown id fails with {@code push_target_not_found}. */
  Future<Void> remove(long actor, long targetId);

  /** The actor's push preferences (the defaults, {@code {kinds_off: [], quiet_hours: null, previews: true}}, if unset). */
  Future<JsonObject> preferences(long actor);

  /**
   * Replaces the members given of the actor's push preferences; returns them all. An unknown member or type, a time
   * that is not {@code HH:MM}, or an unknown time zone fails with {@code validation_failed} naming the field.
   */
  Future<JsonObject> setPreferences(long actor, JsonObject preferences);
}
