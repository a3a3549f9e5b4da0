package io.kith.push.service.webhooks;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.accounts.api.events.UserRegistered;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.events.ActivityJoined;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.events.CommentAdded;
import io.kith.feeds.api.events.PostDeleted;
import io.kith.feeds.api.events.PostLiked;
import io.kith.feeds.api.events.PostEdited;
import io.kith.feeds.api.events.PostPublished;
import io.kith.messaging.api.MessagingEvents;
import io.kith.messaging.api.events.MessageSent;
import io.kith.platform.events.DomainEvent;
import io.kith.push.api.Webhooks;
import io.kith.moderation.api.ModerationEvents;
import io.kith.moderation.api.events.ContentRemoved;
import io.kith.moderation.api.events.ReportFiled;
import io.kith.moderation.api.events.UserLimited;
import io.kith.moderation.api.events.UserSuspended;
import io.kith.moderation.api.events.UserUnlimited;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The typed webhook payload of each domain event a webhook type stands for (see {@link Webhooks} for the types and
 * their data), and the resource whose deliveries it is ordered with. Only ids and public facts are copied: a
 * message's preview, for one, never leaves.
 */
final class WebhookEvents {

  /** The domains whose streams carry webhook events. */
  static final List<String> DOMAINS = List.of(AccountsEvents.DOMAIN, RelationsEvents.DOMAIN, FeedsEvents.DOMAIN,
      MessagingEvents.DOMAIN, ActivitiesEvents.DOMAIN, ModerationEvents.DOMAIN);

  /**
   * A webhook event.
   *
   * @param type     a {@link Webhooks#TYPES} member
   * @param resource the ordering key ({@code post:<id>} ...)
   * @param data     the type's data
   */
  record Mapped(String type, String resource, JsonObject data) {
  }

  private WebhookEvents() {
  }

  /** The webhook event of a domain event, or null when no webhook type stands for it. */
  static Mapped of(DomainEvent e) {
    JsonObject p = e.payload();
    return switch (e.domain() + "/" + e.type()) {
      case AccountsEvents.DOMAIN + "/" + AccountsEvents.USER_REGISTERED -> registered(UserRegistered.fromJson(p));
      case AccountsEvents.DOMAIN + "/" + AccountsEvents.ACCOUNT_DELETED -> {
        long user = AccountDeleted.fromJson(p).userId();
        yield new Mapped(Webhooks.USER_DELETED, "user:" + user, new JsonObject().put("user_id", user));
      }
      case RelationsEvents.DOMAIN + "/" + RelationsEvents.USER_FOLLOWED -> follow(Webhooks.RELATION_FOLLOWED, p);
      case RelationsEvents.DOMAIN + "/" + RelationsEvents.USER_UNFOLLOWED -> follow(Webhooks.RELATION_UNFOLLOWED, p);
      case FeedsEvents.DOMAIN + "/" + FeedsEvents.POST_PUBLISHED -> {
        PostPublished published = PostPublished.fromJson(p);
        // a held post reaches its readers only when a moderator releases it (PostEdited released, below)
        yield published.held() ? null : published(published.post(), published.author(), published.visibility(),
            published.repostOf());
      }
      case FeedsEvents.DOMAIN + "/" + FeedsEvents.POST_EDITED -> {
        PostEdited edited = PostEdited.fromJson(p);
        yield edited.released() ? published(edited.post(), edited.author(), edited.visibility(), edited.repostOf())
            : null;
      }
      case FeedsEvents.DOMAIN + "/" + FeedsEvents.POST_DELETED -> {
        PostDeleted d = PostDeleted.fromJson(p);
        yield new Mapped(Webhooks.POST_DELETED, "post:" + d.post(),
            new JsonObject().put("post", d.post()).put("author", d.author()));
      }
      case FeedsEvents.DOMAIN + "/" + FeedsEvents.COMMENT_ADDED -> commented(CommentAdded.fromJson(p));
      case FeedsEvents.DOMAIN + "/" + FeedsEvents.POST_LIKED -> {
        PostLiked l = PostLiked.fromJson(p);
        yield new Mapped(Webhooks.LIKE_ADDED, "post:" + l.post(),
            new JsonObject().put("post", l.post()).put("from", l.from()));
      }
      case MessagingEvents.DOMAIN + "/" + MessagingEvents.MESSAGE_SENT -> sent(MessageSent.fromJson(p));
      case ActivitiesEvents.DOMAIN + "/" + ActivitiesEvents.ACTIVITY_JOINED -> {
        ActivityJoined j = ActivityJoined.fromJson(p);
        yield new Mapped(Webhooks.ACTIVITY_JOINED, "activity:" + j.activity(),
            new JsonObject().put("activity", j.activity()).put("user", j.user()).put("via", j.via()));
      }
      default -> e.domain().equals(ModerationEvents.DOMAIN) ? moderation(e.type(), p) : null;
    };
  }

  /** The webhook event of a moderation event, or null. */
  private static Mapped moderation(String type, JsonObject p) {
    return switch (type) {
      case ModerationEvents.REPORT_FILED -> {
        ReportFiled r = ReportFiled.fromJson(p);
        yield new Mapped(Webhooks.REPORT_FILED, "report:" + r.reportId(), new JsonObject().put("report", r.reportId())
            .put("target_type", r.targetType()).put("target_id", r.targetId()).put("target_owner", r.targetOwner())
            .put("category", r.category()));
      }
      case ModerationEvents.CONTENT_REMOVED -> {
        ContentRemoved c = ContentRemoved.fromJson(p);
        yield new Mapped(Webhooks.CONTENT_REMOVED, c.targetType() + ":" + c.targetId(), new JsonObject()
            .put("target_type", c.targetType()).put("target_id", c.targetId()).put("owner", c.owner())
            .put("report", c.reportId()));
      }
      case ModerationEvents.USER_SUSPENDED -> {
        UserSuspended u = UserSuspended.fromJson(p);
        yield new Mapped(Webhooks.USER_SUSPENDED, "user:" + u.userId(), new JsonObject().put("user_id", u.userId())
            .put("until", u.until()));
      }
      case ModerationEvents.USER_LIMITED -> {
        UserLimited l = UserLimited.fromJson(p);
        yield new Mapped(Webhooks.USER_LIMITED, "user:" + l.userId(), new JsonObject().put("user_id", l.userId())
            .put("until", l.until()));
      }
      case ModerationEvents.USER_UNLIMITED -> {
        long user = UserUnlimited.fromJson(p).userId();
        yield new Mapped(Webhooks.USER_UNLIMITED, "user:" + user, new JsonObject().put("user_id", user));
      }
      default -> null;
    };
  }

  /** The body delivered: {@code {id, type, created_at, data}}. */
  static JsonObject body(DomainEvent e, Mapped m) {
    return new JsonObject().put("id", e.id()).put("type", m.type())
        .put("created_at", Instant.ofEpochMilli(e.time()).toString()).put("data", m.data());
  }

  private static Mapped registered(UserRegistered r) {
    return new Mapped(Webhooks.USER_REGISTERED, "user:" + r.userId(),
        new JsonObject().put("user_id", r.userId()).put("username", r.username()));
  }

  private static Mapped follow(String type, JsonObject p) {
    long from = p.getLong("from", 0L);
    long to = p.getLong("to", 0L);
    return new Mapped(type, "follow:" + from + ":" + to, new JsonObject().put("from", from).put("to", to));
  }

  private static Mapped published(long post, long author, String visibility, long repostOf) {
    return new Mapped(Webhooks.POST_PUBLISHED, "post:" + post, new JsonObject().put("post", post)
        .put("author", author).put("visibility", visibility).put("repost_of", repostOf));
  }

  private static Mapped commented(CommentAdded c) {
    return new Mapped(Webhooks.COMMENT_ADDED, "post:" + c.post(), new JsonObject().put("comment", c.comment())
        .put("post", c.post()).put("from", c.from()).put("reply_to", c.replyTo()));
  }

  private static Mapped sent(MessageSent m) {
    JsonObject data = new JsonObject().put("message", m.message()).put("conversation", m.conversation())
        .put("seq", m.seq()).put("kind", m.kind()).put("from", m.from())
        .put("to", new JsonArray(new ArrayList<>(m.to())));
    if (m.group() != null) {
      data.put("group", m.group());
    }
    return new Mapped(Webhooks.MESSAGE_SENT, "conversation:" + m.conversation(), data);
  }
}
