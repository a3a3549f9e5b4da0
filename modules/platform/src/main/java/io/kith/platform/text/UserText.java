package io.kith.platform.text;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;

/**
 * The one check of text that users store and other users read (posts, comments, messages, names, titles, profile
 * fields): it refuses control characters, which break clients and logs (NUL ends C strings, escape sequences drive
 * terminals), and unpaired UTF-16 surrogates, which are not Unicode at all: a JSON body may carry one as a
 * backslash-u escape of D800 to DFFF standing alone, and the stores would keep a replacement character in its place,
 * so what was stored would not be what was sent. A refusal is {@code validation_failed} naming the field, as every
 * domain's other invalid input is.
 */
public final class UserText {

  private UserText() {
  }

  /**
   * A one-line text (a name, a title, a tag): refused with {@code validation_failed} naming {@code field} if it holds
   * any control character (line breaks and tabs included) or an unpaired surrogate.
   *
   * @return {@code text} unchanged (null stays null)
   */
  public static String line(String field, String text) {
    return checked(field, text, false);
  }

  /**
   * A text that may run over several lines (a post, a comment, a message, a description): as {@link #line}, but line
   * feeds, carriage returns and tabs are allowed.
   *
   * @return {@code text} unchanged (null stays null)
   */
  public static String lines(String field, String text) {
    return checked(field, text, true);
  }

  /**
   * What is wrong with {@code text} as user text, as the end of a sentence ("must not contain control characters"),
   * or null when nothing is.
   *
   * @param multiline whether line feeds, carriage returns and tabs are allowed
   */
  public static String flaw(String text, boolean multiline) {
    if (text == null) {
      return null;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
        continue;
      }
      if (Character.isSurrogate(c)) {
        return "must be valid Unicode text (it holds an unpaired surrogate)";
      }
      if (Character.getType(c) == Character.CONTROL && !(multiline && (c == '\n' || c == '\r' || c == '\t'))) {
        return "must not contain control characters";
      }
    }
    return null;
  }

  private static String checked(String field, String text, boolean multiline) {
    String flaw = flaw(text, multiline);
    if (flaw != null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " " + flaw);
    }
    return text;
  }
}
