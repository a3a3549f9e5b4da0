package io.kith.feeds.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The feeds operations that only other domains call, apart from {@link FeedsService}: they answer for whichever
 * viewer the caller names. Bound by the feeds module at {@link #ADDRESS}, which no bridge lets a client send to; the
 * gateway's HTTP routes never see this interface (an architecture test keeps it so).
 */
@ProxyGen
@VertxGen
public interface FeedsInternal {

  /** Event-bus address of the internal operations. */
  String ADDRESS = "kith.feeds.internal";

  /** A proxy to the internal operations (on any node of the cluster that runs feeds). */
  @GenIgnore
  static FeedsInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, FeedsInternal.class, ADDRESS);
  }

  /**
   * Which of up to 1,000 posts {@code viewer} may see, by the same rule as {@link FeedsService#post}:
   * {@code {items: [ids]}}.
   */
  Future<JsonObject> visiblePosts(long viewer, List<Long> postIds);

  /**
   * The comment {@code commentId} when {@code viewer} can see it (its post is visible to them and its author is in no
   * block with them): {@code {author, post}}; {@code comment_not_found} otherwise, exactly as a missing comment.
   */
  Future<JsonObject> commentSeenBy(long viewer, long commentId);

  /**
   * Removes a {@code "post"} or {@code "comment"} on a moderator's decision: it becomes unavailable to everyone (reads
   * answer 404 as for a missing one, lists skip it, counters are recounted) while its record stays for review, with
   * {@code removal} ({@code {by, reason, report_id, at}}) on it. Reposts show their original as
   * {@code {state: "removed"}}, replies their parent as removed. Answers {@code {owner}}; repeating it changes
   * nothing; a missing (or deleted) one is {@code post_not_found} / {@code comment_not_found}.
   */
  Future<JsonObject> removeByModerator(String type, long id, JsonObject removal);

  /**
   * Releases a {@code "post"} or {@code "comment"} a content filter held (a moderator dismissed its system report):
   * it is shown as its author published it, and a post spreads to timelines then. Answers {@code {owner}}; nothing
   * changes for one not held; a missing one is {@code post_not_found} / {@code comment_not_found}.
   */
  Future<JsonObject> releaseHeld(String type, long id);

  /**
   * A {@code "post"} or {@code "comment"} as moderators review it, removed or not: its record with {@code id}, the
   * content, {@code deleted} and {@code removed} when set; {@code post_not_found} / {@code comment_not_found}.
   */
  Future<JsonObject> contentForModerator(String type, long id);
}
