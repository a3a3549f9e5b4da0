package io.kith.push.service.delivery;

import io.kith.messaging.api.events.MessageSent;
import io.kith.notifications.api.Notifications;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Writes a notification view as a push: the text a lock screen shows, from what the view itself carries (the actor's
 * summary as the recipient sees it, the group's or activity's title, the message preview), so a push never tells more
 * than the notification does. With previews off a message reads "New message" and a mention names only its sender.
 * Kith's own words are in the recipient's locale ({@link Texts}); what users and the operator wrote (names, titles,
 * previews, an app-defined notification's {@code title} and {@code body} fields) goes as written.
 */
final class Render {

  private static final List<String> IDS = List.of("from_user", "conversation", "message", "group", "post",
      "comment", "activity");

  private Render() {
  }

  /** The push of a notification {@code view} to a recipient whose locale is {@code locale} (null: English). */
  static PushMessage of(JsonObject view, long badge, boolean previews, String locale) {
    Texts texts = Texts.of(locale);
    String type = view.getString("type", "");
    String actor = name(view.getJsonObject("actor"), texts);
    String title = view.getString("title", "");
    String preview = view.getString("preview", "");
    JsonObject data = new JsonObject().put("type", type).put("notification", view.getLong("id"));
    IDS.forEach(id -> {
      if (view.getValue(id) != null) {
        data.put(id, view.getValue(id));
      }
    });
    return switch (type) {
      case Notifications.MESSAGE -> new PushMessage(actor, previews && !preview.isEmpty() ? preview
          : texts.get("new_message"), badge, collapse(view), data);
      case Notifications.CHAT_MENTION -> new PushMessage(title.isEmpty() ? null : title,
          previews && !preview.isEmpty() ? actor + ": " + preview : String.format(texts.get("mentioned_you"), actor),
          badge, collapse(view), data);
      default -> Notifications.TYPES.contains(type) ? new PushMessage(null, texts.sentence(type, actor,
          title.isEmpty() ? texts.get("an_activity") : title), badge, collapse(view), data)
          : appDefined(view.getJsonObject(Notifications.DATA, new JsonObject()), texts, badge, collapse(view), data);
    };
  }

  /**
   * An app-defined (system) notification, such as an announcement: its {@code title} and {@code body} string fields
   * as the operator wrote them, when the type declares them; else Kith's "Something new".
   */
  private static PushMessage appDefined(JsonObject fields, Texts texts, long badge, String collapse, JsonObject data) {
    String title = fields.getValue("title") instanceof String t && !t.isBlank() ? t : null;
    String body = fields.getValue("body") instanceof String b && !b.isBlank() ? b : texts.get("something_new");
    return new PushMessage(title, body, badge, collapse, data);
  }

  /**
   * A group chat message: title the group's name, text "sender: preview" ("New message" with previews off or for
   * media, in the recipient's {@code locale}); collapsed per conversation.
   */
  static PushMessage groupMessage(MessageSent sent, JsonObject sender, long badge, boolean previews, String locale) {
    Texts texts = Texts.of(locale);
    String preview = sent.preview() == null ? "" : sent.preview();
    JsonObject data = new JsonObject().put("type", "group_message").put("from_user", sent.from())
        .put("conversation", sent.conversation()).put("message", sent.message()).put("group", sent.group());
    String groupName = sent.groupName() == null || sent.groupName().isEmpty() ? null : sent.groupName();
    return new PushMessage(groupName, previews && !preview.isEmpty() ? name(sender, texts) + ": " + preview
        : texts.get("new_message"), badge, "c" + sent.conversation(), data);
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

  private static String name(JsonObject actor, Texts texts) {
    if (actor == null) {
      return texts.get("someone");
    }
    String nickname = actor.getString("nickname", "");
    return !nickname.isBlank() ? nickname : actor.getString("username", texts.get("someone"));
  }
}
