package io.kith.messaging.service;

import static io.kith.messaging.service.Groups.ADMIN;
import static io.kith.messaging.service.Groups.MEMBER;
import static io.kith.messaging.service.Groups.OWNER;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Finding topic and friend groups by the words of their name and topic. */
final class GroupSearch {

  private static final int MAX_QUERY_WORDS = 5;
  private static final int MAX_QUERY = 50;

  private final GroupStore groups;
  private final Groups access;

  GroupSearch(GroupStore groups, Groups access) {
    this.groups = groups;
    this.access = access;
  }

  Future<JsonObject> search(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      Object raw = q.getValue("q");
      if (!(raw instanceof String) || ((String) raw).isBlank() || ((String) raw).length() > MAX_QUERY) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "q", "q must be 1 to " + MAX_QUERY + " characters");
      }
      List<String> words = GroupInput.words((String) raw);
      if (words.isEmpty()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "q", "q must contain a letter or a digit");
      }
      if (words.size() > MAX_QUERY_WORDS) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "q", "q may have at most " + MAX_QUERY_WORDS
            + " words");
      }
      int limit = GroupInput.limit(q, "limit", 20, 50);
      Long before = GroupInput.positive(q, "before");
      return groups.search(words, before, limit + 1).compose(found -> {
        boolean more = found.size() > limit;
        List<JsonObject> page = more ? found.subList(0, limit) : found;
        return views(actor, page).map(items -> new JsonObject().put("items", items)
            .put("next", more ? page.get(page.size() - 1).getLong("_id") : null));
      });
    });
  }

  /** Group views of light documents (no members array) for the actor: role and invitation looked up. */
  private Future<JsonArray> views(long actor, List<JsonObject> docs) {
    if (docs.isEmpty()) {
      return Future.succeededFuture(new JsonArray());
    }
    List<Long> ids = docs.stream().map(d -> d.getLong("_id")).toList();
    Future<List<JsonObject>> mine = groups.memberships(actor, ids);
    Future<Set<Long>> in = groups.memberOf(actor, ids);
    Future<List<JsonObject>> invited = groups.invitationsTo(actor, ids);
    return Future.all(mine, in, invited).map(v -> {
      Map<Long, String> roles = new HashMap<>();
      // a member document counts only with the user in the group's members (see putMember)
      mine.result().stream().filter(m -> in.result().contains(m.getLong("conversation")))
          .forEach(m -> roles.put(m.getLong("conversation"), m.getString("role", MEMBER)));
      Set<Long> invitations = new java.util.HashSet<>();
      invited.result().forEach(i -> invitations.add(i.getLong("group")));
      JsonArray items = new JsonArray();
      for (JsonObject d : docs) {
        long id = d.getLong("_id");
        String role = roles.get(id);
        if (role != null) {
          role = d.getLong("owner", 0L) == actor ? OWNER : OWNER.equals(role) ? ADMIN : role;
        }
        items.add(access.view(d, role, invitations.contains(id)));
      }
      return items;
    });
  }

}
