package io.kith.push.service.delivery;

import io.kith.notifications.api.Notifications;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.kith.platform.store.MongoErrors;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * A user's push preferences, in MongoDB ({@value #COLLECTION}: {@code {user, kinds_off: [types], quiet_hours:
 * {start, end, time_zone} | null, previews}}): notification types that do not push, quiet hours in the user's time
 * zone (no push from {@code start} until {@code end}, across midnight when {@code end} is earlier), and whether a
 * message push shows its text. Muted users and types are the notifications module's: what they stop never becomes a
 * notification, so it never pushes either. The user is a field with a unique index rather than the {@code _id}, as
 * the notification preferences keep it: concurrent first upserts race on the index and the loser retries.
 */
public final class Preferences {

  static final String COLLECTION = "push_preferences";
  private static final JsonObject DEFAULTS = new JsonObject().put("kinds_off", new JsonArray())
      .putNull("quiet_hours").put("previews", true);

  private final MongoClient mongo;

  /** Creates the store over the node's MongoDB client. */
  public Preferences(MongoClient mongo) {
    this.mongo = mongo;
  }

  /** Declares the unique index on the user. */
  public Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("user", 1),
        new IndexOptions().name("user_unique").unique(true));
  }

  /** The user's preferences: {@code {kinds_off, quiet_hours, previews}} (the defaults when never set). */
  public Future<JsonObject> of(long user) {
    return mongo.findOne(COLLECTION, new JsonObject().put("user", user), null).map(found -> {
      JsonObject prefs = DEFAULTS.copy();
      if (found != null) {
        for (String member : DEFAULTS.fieldNames()) {
          prefs.put(member, found.getValue(member, DEFAULTS.getValue(member)));
        }
      }
      return prefs;
    });
  }

  /** Erases the user's preferences (the account was erased); yields how many documents went (0 or 1). */
  public Future<Long> remove(long user) {
    return mongo.removeDocuments(COLLECTION, new JsonObject().put("user", user))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** Replaces the members given ({@code kinds_off}, {@code quiet_hours} or null, {@code previews}); returns all. */
  public Future<JsonObject> set(long user, JsonObject changes) {
    JsonObject set = new JsonObject();
    try {
      read(changes == null ? new JsonObject() : changes, set);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    if (set.isEmpty()) {
      return of(user);
    }
    return upsert(user, set).recover(e -> MongoErrors.isDuplicateKey(e) ? upsert(user, set) : Future.failedFuture(e))
        .compose(r -> of(user));
  }

  private Future<Void> upsert(long user, JsonObject set) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("user", user),
        new JsonObject().put("$set", set), new UpdateOptions().setUpsert(true)).mapEmpty();
  }

  private static void read(JsonObject in, JsonObject set) {
    for (String member : in.fieldNames()) {
      switch (member) {
        case "kinds_off" -> set.put("kinds_off", kinds(in.getValue(member)));
        case "quiet_hours" -> set.put("quiet_hours", quietHours(in.getValue(member)));
        case "previews" -> {
          if (!(in.getValue(member) instanceof Boolean)) {
            throw Failures.field(KithErrors.VALIDATION_FAILED, "previews", "previews must be true or false");
          }
          set.put("previews", in.getBoolean(member));
        }
        default -> throw Failures.field(KithErrors.VALIDATION_FAILED, member,
            member + " is not a push preference (kinds_off, quiet_hours, previews)");
      }
    }
  }

  private static JsonArray kinds(Object value) {
    if (!(value instanceof JsonArray)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "kinds_off", "kinds_off must be a list of notification types");
    }
    JsonArray kinds = new JsonArray();
    for (Object kind : (JsonArray) value) {
      if (!(kind instanceof String) || !Notifications.TYPES.contains(kind)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "kinds_off", "unknown notification type: " + kind);
      }
      if (!kinds.contains(kind)) {
        kinds.add(kind);
      }
    }
    return kinds;
  }

  private static JsonObject quietHours(Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonObject)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "quiet_hours", "quiet_hours must be {start, end, time_zone}");
    }
    JsonObject q = (JsonObject) value;
    String start = time(q, "start");
    String end = time(q, "end");
    String zone = q.getValue("time_zone") instanceof String ? q.getString("time_zone") : "";
    try {
      ZoneId.of(zone);
    } catch (DateTimeException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "quiet_hours.time_zone",
          "quiet_hours.time_zone must be an IANA time zone such as Europe/Paris");
    }
    if (start.equals(end)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "quiet_hours.end", "quiet hours must not start and end at once");
    }
    return new JsonObject().put("start", start).put("end", end).put("time_zone", zone);
  }

  private static String time(JsonObject q, String member) {
    Object value = q.getValue(member);
    try {
      if (value instanceof String && ((String) value).matches("\\d\\d:\\d\\d")) {
        return LocalTime.parse((String) value).toString();
      }
    } catch (DateTimeParseException e) {
      // refused below
    }
    throw Failures.field(KithErrors.VALIDATION_FAILED, "quiet_hours." + member,
        "quiet_hours." + member + " must be a time of day as HH:MM (00:00 to 23:59)");
  }

  /** Whether {@code now} falls in the quiet hours of {@code prefs} (in their time zone). */
  static boolean quiet(JsonObject prefs, java.time.Instant now) {
    JsonObject q = prefs.getJsonObject("quiet_hours");
    if (q == null) {
      return false;
    }
    LocalTime local = ZonedDateTime.ofInstant(now, ZoneId.of(q.getString("time_zone"))).toLocalTime();
    LocalTime start = LocalTime.parse(q.getString("start"));
    LocalTime end = LocalTime.parse(q.getString("end"));
    return start.isBefore(end) ? !local.isBefore(start) && local.isBefore(end)
        : !local.isBefore(start) || local.isBefore(end);
  }
}
