package io.kith.push.service.delivery;

import io.kith.messaging.api.events.MessageSent;
import io.kith.notifications.api.Notifications;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * Writes a notification view as a push: the text a lock screen shows, from what the view itself carries (the actor's
 * summary as the recipient sees it, the group's or activity's title, the message preview), so a push never tells more
 * than the notification does. With previews off a message reads "New message" and a mention names only its sender.
 */
final class Render {

  /** Texts by type; {@code %1$s} is the actor's name, {@code %2$s} the title. */
  private static final Map<String, String> TEXTS = Map.ofEntries(
      Map.entry(Notifications.FOLLOWER, "%1$s followed you"),
      Map.entry(Notifications.FOLLOW_REQUEST, "%1$s asked to follow you"),
      Map.entry(Notifications.REQUEST_ACCEPTED, "%1$s accepted your follow request"),
      Map.entry(Notifications.FRIEND, "You and %1$s are now friends"),
      Map.entry(Notifications.COMMENT, "%1$s commented on your post"),
      Map.entry(Notifications.REPLY, "%1$s replied to your comment"),
      Map.entry(Notifications.LIKE, "%1$s liked your post"),
      Map.entry(Notifications.REPOST, "%1$s reposted your post"),
      Map.entry(Notifications.MENTION, "%1$s mentioned you in a post"),
      Map.entry(Notifications.GROUP_INVITATION, "%1$s invited you to %2$s"),
      Map.entry(Notifications.MEMBER_KICKED, "You were removed from %2$s"),
      Map.entry(Notifications.ACTIVITY_UPDATED, "%2$s changed"),
      Map.entry(Notifications.ACTIVITY_CANCELLED, "%2$s was cancelled"),
      Map.entry(Notifications.ACTIVITY_JOINED, "%1$s joined %2$s"),
      Map.entry(Notifications.ACTIVITY_REMOVED, "You were removed from %2$s"),
      Map.entry(Notifications.ACTIVITY_INVITATION, "%1$s invited you to %2$s"),
      Map.entry(Notifications.ACTIVITY_STARTING_SOON, "%2$s starts soon"));
  private static final List<String> IDS = List.of("from_user", "conversation", "message", "group", "post",
      "comment", "activity");
  static final String NEW_MESSAGE = "New message";

  private Render() {
  }

  static PushMessage of(JsonObject view, long badge, boolean previews) {
    String type = view.getString("type", "");
    String actor = name(view.getJsonObject("actor"));
    String title = view.getString("title", "");
    String preview = view.getString("preview", "");
    JsonObject data = new JsonObject().put("type", type).put("notification", view.getLong("id"));
    IDS.forEach(id -> {
      if (view.getValue(id) != null) {
        data.put(id, view.getValue(id));
      }
    });
    return switch (type) {
      case Notifications.MESSAGE -> new PushMessage(actor, previews && !preview.isEmpty() ? preview : NEW_MESSAGE,
          badge, collapse(view), data);
      case Notifications.CHAT_MENTION -> new PushMessage(title.isEmpty() ? null : title,
          previews && !preview.isEmpty() ? actor + ": " + preview : actor + " mentioned you", badge, collapse(view),
          data);
      default -> new PushMessage(null, String.format(TEXTS.getOrDefault(type, "Something new"), actor,
          title.isEmpty() ? "an activity" : title), badge, collapse(view), data);
    };
  }

  /**
   * A group chat message: title the group's name, text "sender: preview" ("New message" with previews off or for
   * media); collapsed per conversation.
   */
  static PushMessage groupMessage(MessageSent sent, JsonObject sender, long badge, boolean previews) {
    String preview = sent.preview() == null ? "" : sent.preview();
    JsonObject data = new JsonObject().put("type", "group_message").put("from_user", sent.from())
        .put("conversation", sent.conversation()).put("message", sent.message()).put("group", sent.group());
    String groupName = sent.groupName() == null || sent.groupName().isEmpty() ? null : sent.groupName();
    return new PushMessage(groupName, previews && !preview.isEmpty() ? name(sender) + ": " + preview : NEW_MESSAGE,
        badge, "c" + sent.conversation(), data);
  }

  /** One key per conversation, activity, post or group; else per type. */
  private static String collapse(JsonObject view) {
    for (String id : List.of("conversation", "activity", "post", "group")) {
      if (view.getValue(id) != null) {
        return id.charAt(0) + String.valueOf(view.getValue(id));
      }
    }
    return view.getString("type", "kith");
  }

  private static String name(JsonObject actor) {
    if (actor == null) {
      return "Someone";
    }
    String nickname = actor.getString("nickname", "");
    return !nickname.isBlank() ? nickname : actor.getString("username", "Someone");
  }
}
