package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The media pipeline finished a media that objects of other domains already carry (a chat video sent while it was
 * processed): those domains replace their copy of its view. Not a {@link FeedsEvent}, since it names no post; the
 * domains read the media's final view from the media store ({@code MediaClient#info} as the owner).
 *
 * @param media    the media
 * @param owner    its uploader
 * @param state    {@code ready} or {@code failed}
 * @param attached the objects using it when it settled, as {@code "<domain>:<object id>"} (see
 *                 {@code MediaAttachments}: {@code messaging:<conversation>}, ...)
 */
public record MediaProcessed(long media, long owner, String state, List<String> attached) implements Event {

  /** Keeps an immutable copy of {@code attached}. */
  public MediaProcessed {
    attached = List.copyOf(attached);
  }

  @Override
  public String eventType() {
    return FeedsEvents.MEDIA_PROCESSED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("media", media).put("owner", owner).put("state", state)
        .put("attached", new JsonArray(new ArrayList<>(attached)));
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static MediaProcessed fromJson(JsonObject json) {
    return new MediaProcessed(json.getLong("media", 0L), json.getLong("owner", 0L), json.getString("state"),
        Event.strings(json.getJsonArray("attached")));
  }

  /** The ids of the objects of {@code domain} using the media (the conversations, for {@code messaging}). */
  public List<Long> objectsOf(String domain) {
    List<Long> ids = new ArrayList<>();
    for (String use : attached) {
      if (use.startsWith(domain + ":")) {
        try {
          ids.add(Long.parseLong(use.substring(domain.length() + 1)));
        } catch (NumberFormatException ignored) {
          // not an object of this version's shape: nothing of it to update
        }
      }
    }
    return ids;
  }
}
