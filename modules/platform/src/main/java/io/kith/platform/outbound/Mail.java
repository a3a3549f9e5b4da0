package io.kith.platform.outbound;

/**
 * One outbound email: a plain-text body and an HTML alternative of the same content.
 *
 * @param kind    what the message is for (such as {@code verification_code}), for the log and the outbox
 * @param to      the recipient's address
 * @param subject the subject line
 * @param text    the plain-text body
 * @param html    the HTML body
 */
public record Mail(String kind, String to, String subject, String text, String html) {
}
