package io.kith.relations.service;

import io.kith.platform.page.VisiblePages;
import io.kith.relations.api.UserDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** Pages of users as every relations list shows them: {user summary, since}, without users a block hides. */
final class UserLists {

  /** Most rows one page of a list of users reads past users hidden from the viewer. */
  static final int MAX_LIST_SCAN = 5_000;
  /** The viewer's sets whose users another user's lists leave out: a block either way, as likers and comments do. */
  static final List<String> BLOCKED_EITHER_WAY = List.of(HotSets.BLOCKS, HotSets.BLOCKED_BY);
  /**
   * The viewer's sets whose users the viewer's own lists (tags, mutes, hides) leave out: those who block the viewer,
   * who look absent to them everywhere else; users the viewer blocks stay, the viewer knows of that.
   */
  static final List<String> BLOCKING_VIEWER = List.of(HotSets.BLOCKED_BY);

  private final HotSets sets;
  private final UserDirectory accounts;

  UserLists(HotSets sets, UserDirectory accounts) {
    this.sets = sets;
    this.accounts = accounts;
  }

  /** A row as a list shows it: the row id (the cursor) and the {user, since} item. */
  private record Shown(long row, JsonObject item) {
  }

  /**
   * A page of a list of users ({@code rows} of {_id, at} with the user in {@code field}) without the users in the
   * viewer's {@code hiding} sets, filled up to the limit from older rows, its cursor the last user shown: neither the
   * page nor the cursor tells the viewer that a user who blocks them is on the list.
   */
  Future<JsonObject> shownPage(long viewer, List<String> hiding, VisiblePages.Rows<JsonObject, Long> rows,
                               String field, Long before, int limit) {
    return VisiblePages.read(rows, batch -> shownTo(viewer, hiding, batch, field), r -> r.getLong("_id"), Shown::row,
        before, limit, MAX_LIST_SCAN).map(page -> {
          JsonArray items = new JsonArray();
          page.items().forEach(shown -> items.add(shown.item()));
          return new JsonObject().put("items", items).put("next", page.next() == null ? null : page.next().toString());
        });
  }

  /** The rows of a batch whose user ({@code field}) exists and is in none of the viewer's {@code hiding} sets. */
  private Future<List<Shown>> shownTo(long viewer, List<String> hiding, List<JsonObject> batch, String field) {
    List<Long> ids = new ArrayList<>(new LinkedHashSet<>(batch.stream().map(r -> r.getLong(field)).toList()));
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return sets.memberships(viewer, hiding, ids).compose(masks -> {
      List<Long> shown = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        if (masks[i] == 0) {
          shown.add(ids.get(i));
        }
      }
      Future<JsonObject> summaries = shown.isEmpty() ? Future.succeededFuture(new JsonObject())
          : accounts.summaries(viewer, shown);
      return summaries.map(found -> {
        List<Shown> out = new ArrayList<>();
        for (JsonObject row : batch) {
          JsonObject user = found.getJsonObject(Long.toString(row.getLong(field)));
          if (user != null) {
            out.add(new Shown(row.getLong("_id"), new JsonObject().put("user", user).put("since", row.getLong("at"))));
          }
        }
        return out;
      });
    });
  }

  /** Hydrates a page of rows whose {@code field} holds the other user's id into {user, since} items. */
  Future<JsonObject> page(Future<List<JsonObject>> rows, int limit, String field, long viewer) {
    return rows.compose(list -> {
      List<Long> ids = new ArrayList<>(new LinkedHashSet<>(list.stream().map(r -> r.getLong(field)).toList()));
      Future<JsonObject> summaries = ids.isEmpty() ? Future.succeededFuture(new JsonObject())
          : accounts.summaries(viewer, ids);
      return summaries.map(found -> {
        JsonArray items = new JsonArray();
        for (JsonObject row : list) {
          JsonObject user = found.getJsonObject(Long.toString(row.getLong(field)));
          if (user != null) {
            items.add(new JsonObject().put("user", user).put("since", row.getLong("at")));
          }
        }
        return new JsonObject().put("items", items).put("next", Paging.nextCursor(list, limit));
      });
    });
  }
}
