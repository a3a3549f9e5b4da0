package io.kith.accounts.api;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * User summaries ({@link AccountsService#summaries}) for a list screen, asked once per page: the ids of a page are
 * gathered, asked in batches of {@value #BATCH} (the service's limit), and each item gets the summary of the user it
 * names. Every domain that shows people beside its items (posts, comments, messages, participants, notifications)
 * uses this one helper instead of its own copy of the lookup.
 */
public final class UserSummaries {

  /** The most ids one {@link AccountsService#summaries} call takes. */
  public static final int BATCH = 1000;

  private UserSummaries() {
  }

  /**
   * Summaries of these users as accounts shows them to the viewer, keyed by the id as a string (the shape of
   * {@link AccountsService#summaries}); unknown users are absent. No call is made for no ids; repeated and null ids
   * are asked once; more than {@value #BATCH} ids are asked in several calls at once.
   */
  public static Future<JsonObject> lookup(AccountsService accounts, long viewer, Collection<Long> userIds) {
    List<Long> ids = new ArrayList<>(new LinkedHashSet<>(userIds));
    ids.removeIf(Objects::isNull);
    if (ids.isEmpty()) {
      return Future.succeededFuture(new JsonObject());
    }
    if (ids.size() <= BATCH) {
      return accounts.summaries(viewer, ids);
    }
    List<Future<JsonObject>> parts = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += BATCH) {
      parts.add(accounts.summaries(viewer, ids.subList(i, Math.min(ids.size(), i + BATCH))));
    }
    return Future.all(parts).map(all -> {
      JsonObject out = new JsonObject();
      parts.forEach(part -> out.mergeIn(part.result()));
      return out;
    });
  }

  /**
   * Puts under {@code key} of each item the summary of the user whose id the item holds under {@code idKey}, in
   * place, with one batched lookup for the whole list. An item naming a user accounts does not know gets
   * {@code {id}} alone, as a missing user shows everywhere; an item without {@code idKey} is left as it is.
   *
   * @return the same items, once their summaries are in
   */
  public static Future<List<JsonObject>> attach(AccountsService accounts, long viewer, List<JsonObject> items,
                                                String idKey, String key) {
    List<Long> ids = new ArrayList<>();
    for (JsonObject item : items) {
      if (item != null && item.getValue(idKey) instanceof Number n) {
        ids.add(n.longValue());
      }
    }
    return lookup(accounts, viewer, ids).map(found -> {
      for (JsonObject item : items) {
        if (item != null && item.getValue(idKey) instanceof Number n) {
          item.put(key, of(found, n.longValue()));
        }
      }
      return items;
    });
  }

  /** The summary of {@code userId} among {@code found} (a {@link #lookup} answer), or {@code {id}} when absent. */
  public static JsonObject of(JsonObject found, long userId) {
    JsonObject summary = found.getJsonObject(Long.toString(userId));
    return summary != null ? summary : new JsonObject().put("id", userId);
  }
}
