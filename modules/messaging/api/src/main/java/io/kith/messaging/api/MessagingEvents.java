package io.kith.messaging.api;

/** Events the messaging domain appends to the stream {@code events:messaging}. */
public final class MessagingEvents {

  /** The domain (stream) name. */
  public static final String DOMAIN = "messaging";
  /**
   * A message was persisted: {@code {message (id), conversation, seq, kind: "direct", from, to: [recipient ids],
   * preview (up to 100 characters; empty for media)}}. Appended after the MongoDB write, once per message.
   */
  public static final String MESSAGE_SENT = "MessageSent";

  private MessagingEvents() {
  }
}
