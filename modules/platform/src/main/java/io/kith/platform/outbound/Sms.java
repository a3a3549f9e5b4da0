package io.kith.platform.outbound;

/**
 * One outbound text message.
 *
 * @param kind what the message is for (such as {@code verification_code}), for the log and the outbox
 * @param to   the recipient's phone number in the form Kith stores it ({@code +} and digits)
 * @param text the message
 */
public record Sms(String kind, String to, String text) {
}
