package io.kith.relations.service;

import io.kith.platform.events.Exports;
import io.kith.relations.api.UserDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Relations' part of an account export ({@link Exports}, served at {@code kith.export.relations}): the user's own
 * relations, one archive file per kind, read from MongoDB in parts one after the other, each paged by {@code _id}
 * (oldest first). The cursor is {@code <part>:<last _id>} ({@code <part>:} starts a part). Only the user's own lists:
 * who they follow, who follows them, their friends, requests they sent and received, their friend groups, their tags,
 * and whom they block, mute and hide from; never who blocks, mutes, hides from or tags them.
 *
 * <p>An item shows the other user as relations' lists do, the summary accounts gives the exporting user (or
 * {@code {id}} alone when accounts shows none, e.g. across a block), with {@code since}; a friend group lists its
 * member ids ({@code user.id} in {@code friends.json}).
 */
final class Export implements Exports.Source {

  /** Friend groups per page: each carries up to 5,000 member ids, so a page stays well under a megabyte. */
  static final int GROUPS_PER_PAGE = 10;

  /** Reads a part's rows after a row id. */
  @FunctionalInterface
  private interface Rows {
    Future<List<JsonObject>> read(long user, Long after, int limit);
  }

  /** Turns a part's rows into archive items. */
  @FunctionalInterface
  private interface Items {
    Future<List<JsonObject>> of(long user, List<JsonObject> rows);
  }

  private record Part(String file, int limit, Rows rows, Items items) {
  }

  private final UserDirectory accounts;
  private final GroupStore groups;
  private final List<Part> parts;

  /** The export over the stores, {@code pageSize} records a page at most (at most {@link Exports#MAX_RECORDS}). */
  Export(EdgeStore edges, GroupStore groups, TagStore tags, UserDirectory accounts, int pageSize) {
    this.accounts = accounts;
    this.groups = groups;
    int size = Math.min(pageSize, Exports.MAX_RECORDS);
    this.parts = List.of(
        edgePart("following.json", size, edges, EdgeStore.FOLLOW, "a", null),
        edgePart("followers.json", size, edges, EdgeStore.FOLLOW, "b", null),
        edgePart("friends.json", size, edges, EdgeStore.FRIEND, "a", null),
        edgePart("requests.json", size, edges, EdgeStore.REQUEST, "a", "sent"),
        edgePart("requests.json", size, edges, EdgeStore.REQUEST, "b", "received"),
        new Part("friend_groups.json", Math.min(size, GROUPS_PER_PAGE), groups::ownedAfter, this::groupItems),
        new Part("tags.json", size, tags::ownedAfter, (user, rows) -> withUsers(user, rows, "target", r ->
            new JsonObject().put("tag", r.getString("tag")))),
        edgePart("blocks.json", size, edges, EdgeStore.BLOCK, "a", null),
        edgePart("mutes.json", size, edges, EdgeStore.MUTE, "a", null),
        edgePart("hides.json", size, edges, EdgeStore.HIDE, "a", null));
  }

  /** The user's edges of {@code type} on {@code side}; a request's item says whether it was sent or received. */
  private Part edgePart(String file, int size, EdgeStore edges, String type, String side, String direction) {
    String other = "a".equals(side) ? "b" : "a";
    return new Part(file, size, (user, after, limit) -> edges.after(type, side, user, after, limit),
        (user, rows) -> withUsers(user, rows, other, r -> direction == null ? new JsonObject()
            : new JsonObject().put("direction", direction)));
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    int part = 0;
    Long after = null;
    if (cursor != null) {
      int colon = cursor.indexOf(':');
      try {
        part = Integer.parseInt(cursor.substring(0, Math.max(colon, 0)));
        after = colon == cursor.length() - 1 ? null : Long.valueOf(cursor.substring(colon + 1));
      } catch (NumberFormatException e) {
        return Future.failedFuture(new IllegalArgumentException("not a relations export cursor: " + cursor));
      }
    }
    return from(user, part, after);
  }

  /** The next page from part {@code index} on, skipping empty parts. */
  private Future<Exports.Page> from(long user, int index, Long after) {
    if (index < 0 || index >= parts.size()) {
      return Future.succeededFuture(new Exports.Page(List.of(), null));
    }
    Part part = parts.get(index);
    return part.rows().read(user, after, part.limit() + 1).compose(rows -> {
      if (rows.isEmpty()) {
        return from(user, index + 1, null);
      }
      boolean more = rows.size() > part.limit();
      List<JsonObject> shown = more ? rows.subList(0, part.limit()) : rows;
      String next = more ? index + ":" + shown.get(shown.size() - 1).getLong("_id")
          : index + 1 < parts.size() ? (index + 1) + ":" : null;
      return part.items().of(user, shown).map(items -> new Exports.Page(
          items.stream().map(item -> new Exports.Record(part.file(), item)).toList(), next));
    });
  }

  /** Rows as {@code {user, since}} plus the fields {@code extra} gives, the user in {@code field} of each row. */
  private Future<List<JsonObject>> withUsers(long viewer, List<JsonObject> rows, String field,
                                             java.util.function.Function<JsonObject, JsonObject> extra) {
    List<Long> ids = new ArrayList<>(new LinkedHashSet<>(rows.stream().map(r -> r.getLong(field)).toList()));
    return accounts.summaries(viewer, ids).map(found -> {
      List<JsonObject> items = new ArrayList<>(rows.size());
      for (JsonObject row : rows) {
        long other = row.getLong(field);
        JsonObject summary = found.getJsonObject(Long.toString(other));
        items.add(extra.apply(row).put("user", summary != null ? summary : new JsonObject().put("id", other))
            .put("since", row.getLong("at")));
      }
      return items;
    });
  }

  /** Groups as the group list shows them, each with its member ids. */
  private Future<List<JsonObject>> groupItems(long user, List<JsonObject> rows) {
    List<Future<JsonObject>> each = new ArrayList<>();
    for (JsonObject group : rows) {
      each.add(groups.memberIds(group.getLong("_id"))
          .map(members -> GroupStore.view(group).put("members", new JsonArray(members))));
    }
    return Future.all(each).map(all -> all.<JsonObject>list());
  }
}
