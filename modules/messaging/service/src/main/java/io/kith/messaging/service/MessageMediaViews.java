package io.kith.messaging.service;

import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.MediaClient;
import io.kith.feeds.api.events.MediaProcessed;
import io.kith.platform.error.Failures;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.media.MediaAttachments;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Keeps the media view a chat message carries ({@code media: {id, kind, ..., state, variants}}, as the media store
 * answered the send's attach) up to date when a video sent while it was processed settles: feeds appends
 * {@code MediaProcessed} naming the conversations it is attached to, and this consumer (group {@value #GROUP}) reads
 * the final view from the media store, as its uploader, and puts it in the stored messages first, then in the
 * conversations' last message and the Redis window's copies. Every step is idempotent, so a retried event is harmless.
 *
 * <p>A message stored just as its video settled, after the event was handled, is read again after its own writes
 * ({@link #afterStore}), so its view cannot be left behind in {@code processing}.
 */
final class MessageMediaViews {

  private static final Logger LOG = LoggerFactory.getLogger(MessageMediaViews.class);
  /** Consumer group on the feeds stream. */
  static final String GROUP = "messaging-media";
  /** Most messages (the newest) whose Redis window copies one settled media replaces: older ones left the window. */
  static final int MAX_CACHED = 100;
  private static final String PROCESSING = "processing";

  private final MessageStore messages;
  private final ConversationStore conversations;
  private final RecentWindow window;
  private final MediaClient media;

  MessageMediaViews(MessageStore messages, ConversationStore conversations, RecentWindow window, MediaClient media) {
    this.messages = messages;
    this.conversations = conversations;
    this.window = window;
    this.media = media;
  }

  /** Handles a feeds event: only {@code MediaProcessed} of media attached to conversations concerns messaging. */
  Future<?> handle(DomainEvent e) {
    if (!FeedsEvents.MEDIA_PROCESSED.equals(e.type())) {
      return Future.succeededFuture();
    }
    MediaProcessed processed = MediaProcessed.fromJson(e.payload());
    List<Long> conversationIds = processed.objectsOf(MediaAttachments.CONVERSATION);
    if (conversationIds.isEmpty()) {
      return Future.succeededFuture();
    }
    return media.info(processed.owner(), processed.media())
        .compose(view -> settled(processed.media(), conversationIds, view),
            // deleted since (its owner erased): its messages are erased too, nothing to update
            e2 -> FeedsErrors.MEDIA_NOT_FOUND.code().equals(Failures.codeOf(e2)) ? Future.succeededFuture()
                : Future.failedFuture(e2));
  }

  /**
   * After a message with media is stored and its derived copies written: a media still processing is read again,
   * and put in place if it settled meanwhile (its event may have been handled before this message existed). A
   * failure leaves the message as stored (logged).
   */
  void afterStore(JsonObject view) {
    JsonObject carried = view.getJsonObject("media");
    if (carried == null || !PROCESSING.equals(carried.getString("state"))) {
      return;
    }
    long mediaId = carried.getLong("id");
    media.info(view.getLong("sender"), mediaId)
        .compose(now -> PROCESSING.equals(now.getString("state")) ? Future.succeededFuture()
            : settled(mediaId, List.of(view.getLong("conversation")), now))
        .onFailure(e -> LOG.warn("message {} keeps the view of media {} as sent: {}", view.getLong("id"), mediaId,
            e.toString()));
  }

  /** Puts {@code view} in place in the messages of these conversations carrying the media, then in their copies. */
  private Future<Void> settled(long mediaId, List<Long> conversationIds, JsonObject view) {
    return messages.replaceMedia(mediaId, conversationIds, view)
        .compose(v -> conversations.replaceLastMedia(mediaId, conversationIds, view))
        .compose(v -> messages.carrying(mediaId, conversationIds, MAX_CACHED))
        .compose(docs -> Future.all(docs.stream().map(doc -> window.replaceMedia(doc.getLong("conversation"),
            doc.getLong("seq"), mediaId, view)).toList()))
        .mapEmpty();
  }
}
