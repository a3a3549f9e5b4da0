package io.kith.moderation.service;

import io.kith.accounts.api.AccountsService;
import io.kith.activities.api.ActivitiesService;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.FeedsService;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.MessagingService;
import io.kith.messaging.api.WhiteboardService;
import io.kith.moderation.api.Moderation;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;


/**
 * What a reporter may report: the target is looked up through its own domain's public service AS THE REPORTER, so
 * only what the reporter can see can be reported, by the very rules that show it; anything else is 404
 * {@code target_not_found}, exactly as a missing target. Answers the user the target belongs to.
 */
final class Targets {

  private final AccountsService accounts;
  private final FeedsService feeds;
  private final MessagingService messaging;
  private final WhiteboardService boards;
  private final ActivitiesService activities;
  private final FeedsInternal feedsInternal;
  private final MessagingInternal messagingInternal;

  Targets(AccountsService accounts, FeedsService feeds, MessagingService messaging, WhiteboardService boards,
          ActivitiesService activities, FeedsInternal feedsInternal, MessagingInternal messagingInternal) {
    this.accounts = accounts;
    this.feeds = feeds;
    this.messaging = messaging;
    this.boards = boards;
    this.activities = activities;
    this.feedsInternal = feedsInternal;
    this.messagingInternal = messagingInternal;
  }

  /** The owner of {@code type} {@code id} when {@code reporter} can see it. */
  Future<Long> ownerSeenBy(long reporter, String type, long id) {
    Future<Long> owner = switch (type) {
      case "user" -> accounts.profile(reporter, id).map(p -> id);
      case "post" -> feeds.post(reporter, id).map(p -> p.getJsonObject("author").getLong("id"));
      case "group" -> messaging.group(reporter, id).map(g -> g.getLong("owner"));
      case "whiteboard" -> boards.board(reporter, id).map(b -> b.getLong("owner"));
      case "activity" -> activities.activity(reporter, id).map(a -> a.getJsonObject("organiser").getLong("id"));
      case "comment" -> feedsInternal.commentSeenBy(reporter, id).map(c -> c.getLong("author"));
      case "message" -> messagingInternal.messageSeenBy(reporter, id).map(m -> m.getLong("sender"));
      default -> Failures.failField(KithErrors.VALIDATION_FAILED, "target.type", "cannot report a " + type);
    };
    return owner.recover(e -> e instanceof ServiceException se && (se.failureCode() == 404 || se.failureCode() == 403)
        ? Failures.fail(Moderation.TARGET_NOT_FOUND, "no " + type + " " + id + " you can see")
        : Future.failedFuture(e));
  }

  static JsonObject ref(String type, long id) {
    return new JsonObject().put("type", type).put("id", id);
  }
}
