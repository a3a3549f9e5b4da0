package io.kith.notifications.service;

import io.kith.feeds.api.FeedsInternal;
import io.kith.platform.events.Erasures;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules every producer applies before making a notification, in this order: never for the actor themselves; not
 * when this module's erasure of the recipient or of the actor has begun (an event still in flight when an account was
 * erased must not bring it back: the erasure ran once and will not run again); not when the recipient muted the type
 * or the actor; not when a block stands between the two either way (and, for the
 * relations and feeds types, a hide either way); not when the recipient cannot see a post the notification names.
 * A producer may filter its recipients before asking (messaging keeps only the offline recipients of a direct
 * message, with one presence call, before any of these rules costs a query).
 */
final class Notifier {

  /**
   * A notification to make.
   *
   * @param to     the recipient
   * @param type   one of {@code Notifications.TYPES}
   * @param key    the dedupe key, unique per recipient
   * @param slot   the slot it replaces older notifications in (null: none; see {@link NotificationRecords#settle})
   * @param fields its optional fields; {@code from_user} is the actor
   */
  record Notice(long to, String type, String key, String slot, JsonObject fields) {
  }

  private final Delivery delivery;
  private final NotificationRecords records;
  private final RelationsInternal relations;
  private final FeedsInternal feeds;
  private final Erasures erasures;

  Notifier(Delivery delivery, NotificationRecords records, RelationsInternal relations, FeedsInternal feeds,
           Erasures erasures) {
    this.delivery = delivery;
    this.records = records;
    this.relations = relations;
    this.feeds = feeds;
    this.erasures = erasures;
  }

  /**
   * A relations or feeds notification: it needs an actor ({@code from_user}), and a hide either way stops it like a
   * block (hiding is about posts and the people who see them).
   */
  Future<Void> notify(long to, String type, String key, JsonObject fields) {
    if (fields.getLong("from_user", 0L) == 0) {
      return Future.succeededFuture();
    }
    return make(new Notice(to, type, key, null, fields), true);
  }

  /**
   * A messaging or activities notification: the actor is optional (without one, such as a reminder, only the muted
   * types apply); blocks stop it, hides do not (they are about posts).
   */
  Future<Void> notify(Notice notice) {
    return make(notice, false);
  }

  private Future<Void> make(Notice n, boolean hides) {
    long to = n.to();
    long from = n.fields().getLong("from_user", 0L);
    if (to < 1 || to == from) {
      return Future.succeededFuture();
    }
    return erased(to, from).compose(gone -> gone ? Future.succeededFuture(false) : wanted(n, to, from, hides))
        .compose(ok -> ok ? delivery.store(to, n.type(), n.key(), n.slot(), n.fields()) : Future.succeededFuture());
  }

  /** The recipient's mutes, then blocks (and hides) between the two, then the posts the notification names. */
  private Future<Boolean> wanted(Notice n, long to, long from, boolean hides) {
    return records.preferences(to).compose(prefs -> {
      if (prefs.getJsonArray("muted_types").contains(n.type())
          || (from != 0 && prefs.getJsonArray("muted_users").contains(from))) {
        return Future.succeededFuture(false);
      }
      Future<Boolean> apart = from == 0 ? Future.succeededFuture(false) : apart(to, from, hides);
      return apart.compose(a -> a ? Future.succeededFuture(false) : canSee(to, n.fields()));
    });
  }

  /**
   * Whether this module's erasure of the recipient or of the actor (when there is one) has begun: its report exists
   * once the first step is recorded. One read by id each, in parallel.
   */
  private Future<Boolean> erased(long to, long from) {
    Future<JsonObject> recipient = erasures.report(Erasure.DOMAIN, to);
    Future<JsonObject> actor = from == 0 ? Future.succeededFuture() : erasures.report(Erasure.DOMAIN, from);
    return Future.all(recipient, actor).map(all -> recipient.result() != null || actor.result() != null);
  }

  /** Whether a block (either way), or with {@code hides} a hide (either way), stands between the two users. */
  private Future<Boolean> apart(long to, long from, boolean hides) {
    return Future.all(relations.ties(to, List.of(from)), relations.ties(from, List.of(to))).map(all -> {
      JsonObject seenByRecipient = all.<JsonObject>resultAt(0).getJsonObject(Long.toString(from), new JsonObject());
      JsonObject seenByActor = all.<JsonObject>resultAt(1).getJsonObject(Long.toString(to), new JsonObject());
      boolean blocked = seenByRecipient.getBoolean("blocking", false)
          || seenByRecipient.getBoolean("blocked_by", false);
      return blocked || (hides && (seenByRecipient.getBoolean("hidden_from", false)
          || seenByActor.getBoolean("hidden_from", false)));
    });
  }

  /** Whether the recipient may see every post the notification names. */
  private Future<Boolean> canSee(long to, JsonObject fields) {
    Set<Long> posts = new HashSet<>();
    for (String f : List.of("post", "repost")) {
      if (fields.getLong(f, 0L) != 0) {
        posts.add(fields.getLong(f));
      }
    }
    if (posts.isEmpty()) {
      return Future.succeededFuture(true);
    }
    return feeds.visiblePosts(to, new ArrayList<>(posts))
        .map(v -> v.getJsonArray("items", new JsonArray()).size() == posts.size());
  }
}
