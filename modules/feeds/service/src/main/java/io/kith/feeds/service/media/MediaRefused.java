package io.kith.feeds.service.media;

/** A media the pipeline refuses: the media ends in state {@code failed} with {@link #code} and the message. */
final class MediaRefused extends RuntimeException {

  /** Stable reason code shown to clients ({@code undecodable}, {@code too_many_pixels}, {@code too_long}). */
  final String code;

  MediaRefused(String code, String message) {
    super(message, null, false, false);
    this.code = code;
  }
}
