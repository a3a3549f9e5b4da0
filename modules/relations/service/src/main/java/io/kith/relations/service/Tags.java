package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.UserText;
import io.kith.relations.api.RelationsErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

import static io.kith.relations.service.Paging.before;
import static io.kith.relations.service.Paging.clamp;

/** Contact tags: a user's private labels on other users, the tag list, the users under a tag, the tags on a user. */
final class Tags {

  static final int MAX_TAGS = 200;
  static final int MAX_TAG_LENGTH = 30;

  private final TagStore tags;
  private final Targets targets;
  private final UserLists lists;

  Tags(TagStore tags, Targets targets, UserLists lists) {
    this.tags = tags;
    this.targets = targets;
    this.lists = lists;
  }

  Future<Void> tagUser(long actor, long target, String tag) {
    return Failures.guard(() -> {
      String t = tagName(tag);
      return targets.present(actor, target)
          .compose(x -> tags.hasTag(actor, t))
          .compose(known -> known ? Future.<Void>succeededFuture() : roomForTag(actor))
          .compose(x -> tags.tag(actor, target, t)).mapEmpty();
    });
  }

  /** A new tag name fits under the actor's {@link #MAX_TAGS}. */
  private Future<Void> roomForTag(long actor) {
    return tags.distinctTagCount(actor).compose(n -> n >= MAX_TAGS
        ? Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_TAGS + " tags")
        : Future.succeededFuture());
  }

  Future<Void> untagUser(long actor, long target, String tag) {
    return Failures.guard(() -> tags.untag(actor, target, tagName(tag)));
  }

  Future<JsonObject> tags(long actor) {
    return tags.tags(actor).map(items -> new JsonObject().put("items", items));
  }

  Future<JsonObject> taggedUsers(long actor, String tag, int limit, String cursor) {
    return Failures.guard(() -> {
      String t = tagName(tag);
      return lists.shownPage(actor, UserLists.BLOCKING_VIEWER, (older, count) -> tags.tagged(actor, t, older, count),
          "target", before(cursor), clamp(limit));
    });
  }

  Future<JsonObject> tagsOn(long actor, long target) {
    return tags.on(actor, List.of(target)).map(rows -> {
      JsonArray items = new JsonArray();
      rows.forEach(r -> items.add(r.getString("tag")));
      return new JsonObject().put("items", items);
    });
  }

  private static String tagName(String tag) {
    String t = tag == null ? "" : tag.strip();
    if (t.isEmpty() || t.length() > MAX_TAG_LENGTH) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "tag", "tag must be 1 to " + MAX_TAG_LENGTH + " characters");
    }
    return UserText.line("tag", t);
  }
}
