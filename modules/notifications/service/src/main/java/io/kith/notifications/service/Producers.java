package io.kith.notifications.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsInternal;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.events.CommentAdded;
import io.kith.feeds.api.events.CommentDeleted;
import io.kith.feeds.api.events.PostDeleted;
import io.kith.feeds.api.events.PostEdited;
import io.kith.feeds.api.events.PostLiked;
import io.kith.feeds.api.events.PostReposted;
import io.kith.feeds.api.events.PostUnliked;
import io.kith.feeds.api.events.UserMentioned;
import io.kith.messaging.api.MessagingEvents;
import io.kith.moderation.api.ModerationEvents;
import io.kith.notifications.api.Notifications;
import io.kith.platform.Platform;
import io.kith.platform.events.ConsumerSet;
import io.kith.platform.events.Erasures;
import io.kith.platform.events.DomainEvent;
import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.events.RelationsEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns domain events into notifications: the relations stream (consumer group {@value #RELATIONS_GROUP}), the
 * feeds stream (group {@value #FEEDS_GROUP}), and through {@link MessagingProducers} and {@link ActivitiesProducers}
 * the messaging and activities streams. Each handler runs at most once per event id ({@code EventLog.once}) and
 * each notification has a dedupe key unique per recipient, so a redelivered event makes nothing new. The rules
 * checked before making one are {@link Notifier}'s.
 */
final class Producers {

  static final String RELATIONS_GROUP = "notifications-relations";
  static final String FEEDS_GROUP = "notifications-feeds";

  private final Platform platform;
  private final SystemChanges system;
  private final FeedsInternal feeds;
  private final Notifier notifier;
  private final MessagingProducers messaging;
  private final ActivitiesProducers activities;
  private final ModerationProducers moderation;
  private final ConsumerSet consumers;

  Producers(Platform platform, Delivery delivery, SystemChanges system, NotificationRecords records,
            RelationsInternal relations, FeedsInternal feeds, AccountsInternal accounts) {
    this.platform = platform;
    this.system = system;
    this.feeds = feeds;
    this.notifier = new Notifier(delivery, records, relations, feeds, new Erasures(platform.mongo()));
    this.messaging = new MessagingProducers(system, notifier, accounts);
    this.activities = new ActivitiesProducers(system, notifier);
    this.moderation = new ModerationProducers(delivery);
    this.consumers = new ConsumerSet(platform.events());
  }

  Future<Void> start() {
    return consumers.once(RelationsEvents.DOMAIN, RELATIONS_GROUP, this::onRelations)
        .compose(v -> consumers.once(FeedsEvents.DOMAIN, FEEDS_GROUP, this::onFeeds))
        .compose(v -> consumers.once(MessagingEvents.DOMAIN, MessagingProducers.GROUP, messaging::handle))
        .compose(v -> consumers.once(ActivitiesEvents.DOMAIN, ActivitiesProducers.GROUP, activities::handle))
        .compose(v -> consumers.once(AccountsEvents.DOMAIN, ExportProducers.GROUP,
            new ExportProducers(notifier)::handle))
        .compose(v -> consumers.once(ModerationEvents.DOMAIN, ModerationProducers.GROUP, moderation::handle));
  }

  Future<Void> stop() {
    return consumers.stop();
  }

  // ---------------------------------------------------------------- relations

  private Future<?> onRelations(DomainEvent e) {
    RelationsEvent pair = RelationsEvent.ofBoth(e.type(), e.payload());
    if (pair == null) {
      return Future.succeededFuture();
    }
    long from = pair.from();
    JsonObject actor = new JsonObject().put("from_user", from);
    long to = pair.to();
    return switch (e.type()) {
      case RelationsEvents.USER_FOLLOWED -> notifier.notify(to, Notifications.FOLLOWER, "follower:" + from, actor);
      case RelationsEvents.FOLLOW_REQUESTED ->
          notifier.notify(to, Notifications.FOLLOW_REQUEST, "follow_request:" + from, actor);
      // from accepted to's request: to is told, and from's request notification has been answered
      case RelationsEvents.FOLLOW_REQUEST_ACCEPTED -> Future.all(
          notifier.notify(to, Notifications.REQUEST_ACCEPTED, "request_accepted:" + from, actor),
          system.purge(new JsonObject().put("to", from).put("key", "follow_request:" + to)));
      case RelationsEvents.FRIENDSHIP_FORMED -> Future.all(
          notifier.notify(to, Notifications.FRIEND, "friend:" + from, actor),
          notifier.notify(from, Notifications.FRIEND, "friend:" + to, new JsonObject().put("from_user", to)));
      // a block removes what each made for the other
      case RelationsEvents.USER_BLOCKED -> Future.all(
          system.purge(new JsonObject().put("to", to).put("from_user", from)),
          system.purge(new JsonObject().put("to", from).put("from_user", to)));
      default -> Future.succeededFuture();
    };
  }

  // ---------------------------------------------------------------- feeds

  private Future<?> onFeeds(DomainEvent e) {
    JsonObject p = e.payload();
    return switch (e.type()) {
      case FeedsEvents.COMMENT_ADDED -> commented(CommentAdded.fromJson(p));
      case FeedsEvents.POST_LIKED -> liked(PostLiked.fromJson(p));
      case FeedsEvents.POST_UNLIKED -> unliked(PostUnliked.fromJson(p));
      case FeedsEvents.POST_REPOSTED -> reposted(PostReposted.fromJson(p));
      case FeedsEvents.USER_MENTIONED -> mentioned(UserMentioned.fromJson(p));
      case FeedsEvents.POST_DELETED -> postDeleted(PostDeleted.fromJson(p).post());
      case FeedsEvents.COMMENT_DELETED ->
          system.purge(new JsonObject().put("comment", CommentDeleted.fromJson(p).comment()));
      case FeedsEvents.POST_EDITED -> recheck(PostEdited.fromJson(p).post());
      default -> Future.succeededFuture();
    };
  }

  private Future<Void> liked(PostLiked like) {
    return notifier.notify(like.postAuthor(), Notifications.LIKE, "like:" + like.post() + ":" + like.from(),
        new JsonObject().put("from_user", like.from()).put("post", like.post()));
  }

  private Future<Void> unliked(PostUnliked unlike) {
    return system.purge(new JsonObject().put("to", unlike.postAuthor())
        .put("key", "like:" + unlike.post() + ":" + unlike.from()));
  }

  private Future<Void> reposted(PostReposted repost) {
    return notifier.notify(repost.originalAuthor(), Notifications.REPOST, "repost:" + repost.post(),
        new JsonObject().put("from_user", repost.from()).put("post", repost.original()).put("repost", repost.post()));
  }

  private Future<Void> mentioned(UserMentioned mention) {
    return notifier.notify(mention.to(), Notifications.MENTION, "mention:" + mention.post(),
        new JsonObject().put("from_user", mention.from()).put("post", mention.post()));
  }

  private Future<?> postDeleted(long post) {
    return Future.all(system.purge(new JsonObject().put("post", post)),
        system.purge(new JsonObject().put("repost", post)));
  }

  /** A reply tells the author of the answered comment; a comment tells the post's author (once: reply wins). */
  private Future<?> commented(CommentAdded added) {
    long from = added.from();
    long post = added.post();
    long comment = added.comment();
    long postAuthor = added.postAuthor();
    long replyTo = added.replyTo();
    long replyToAuthor = added.replyToAuthor();
    List<Future<Void>> each = new ArrayList<>();
    if (replyTo != 0 && replyToAuthor != 0) {
      each.add(notifier.notify(replyToAuthor, Notifications.REPLY, "reply:" + comment, new JsonObject()
          .put("from_user", from).put("post", post).put("comment", comment).put("reply_to", replyTo)));
    }
    if (postAuthor != 0 && postAuthor != replyToAuthor) {
      each.add(notifier.notify(postAuthor, Notifications.COMMENT, "comment:" + comment, new JsonObject()
          .put("from_user", from).put("post", post).put("comment", comment)));
    }
    return Future.all(each);
  }

  /** After a post's audience changed, removes its notifications from recipients who can no longer see it. */
  private Future<Void> recheck(long post) {
    return system.find(new JsonObject().put("post", post)).compose(found -> {
      Map<Long, List<Long>> byUser = SystemChanges.idsByUser(found);
      List<Future<Void>> each = new ArrayList<>();
      byUser.forEach((user, ids) -> each.add(recheck(user, post, ids)));
      return Future.all(each).mapEmpty();
    });
  }

  /** Removes {@code user}'s notifications ({@code ids}) about {@code post} when they can no longer see it. */
  private Future<Void> recheck(long user, long post, List<Long> ids) {
    return feeds.visiblePosts(user, List.of(post)).compose(v -> v.getJsonArray("items", new JsonArray()).isEmpty()
        ? system.removeForUser(user, ids) : Future.succeededFuture());
  }
}
