package io.kith.accounts.service;

import io.kith.platform.outbound.Mail;
import io.kith.platform.outbound.Sms;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The texts of the messages accounts sends, per kind and locale, from the resources
 * {@code /accounts/messages/<locale>.json} (each kind: subject, text, html, sms, with {@code {{name}}} placeholders).
 * Values are HTML-escaped in the HTML body. The locale is the account's {@code locale}, else the best match of the
 * request's Accept-Language, else English.
 */
final class Messages {

  static final String DEFAULT_LOCALE = "en";
  static final List<String> KINDS = List.of("verification_code", "identifier_in_use", "claim_released", "reset_code",
      "password_reset", "identifier_replaced", "password_changed", "deletion_scheduled",
      "account_suspended");

  private final Map<String, JsonObject> byLocale;

  Messages() {
    this.byLocale = Map.of("en", load("en"), "zh-CN", load("zh-CN"));
    byLocale.forEach((locale, texts) -> KINDS.forEach(kind -> {
      if (texts.getJsonObject(kind) == null) {
        throw new IllegalStateException("accounts/messages/" + locale + ".json has no " + kind);
      }
    }));
  }

  /** The supported locale for an account's {@code locale} (may be null) and an Accept-Language header (may be null). */
  static String locale(String accountLocale, String acceptLanguage) {
    if (accountLocale != null && Profiles.LOCALES.contains(accountLocale)) {
      return accountLocale;
    }
    if (acceptLanguage == null || acceptLanguage.isBlank()) {
      return DEFAULT_LOCALE;
    }
    try {
      for (Locale.LanguageRange range : Locale.LanguageRange.parse(acceptLanguage)) {
        String tag = range.getRange().toLowerCase(Locale.ROOT);
        if (range.getWeight() > 0 && (tag.equals("zh") || tag.startsWith("zh-"))) {
          // Traditional-script and Taiwan or Hong Kong readers are better served by English than by Simplified
          return tag.contains("hant") || tag.endsWith("-tw") || tag.endsWith("-hk") ? DEFAULT_LOCALE : "zh-CN";
        }
        if (range.getWeight() > 0 && (tag.equals("en") || tag.startsWith("en-") || tag.equals("*"))) {
          return DEFAULT_LOCALE;
        }
      }
    } catch (IllegalArgumentException malformed) {
      return DEFAULT_LOCALE;
    }
    return DEFAULT_LOCALE;
  }

  /** The mail of {@code kind} in {@code locale} to {@code to}. */
  Mail mail(String kind, String locale, String to, Map<String, String> values) {
    JsonObject t = texts(kind, locale);
    return new Mail(kind, to, fill(t.getString("subject"), values, false), fill(t.getString("text"), values, false),
        fill(t.getString("html"), values, true));
  }

  /** The text message of {@code kind} in {@code locale} to {@code to}. */
  Sms sms(String kind, String locale, String to, Map<String, String> values) {
    return new Sms(kind, to, fill(texts(kind, locale).getString("sms"), values, false));
  }

  private JsonObject texts(String kind, String locale) {
    return byLocale.getOrDefault(locale, byLocale.get(DEFAULT_LOCALE)).getJsonObject(kind);
  }

  private static String fill(String template, Map<String, String> values, boolean html) {
    String out = template;
    for (Map.Entry<String, String> e : values.entrySet()) {
      out = out.replace("{{" + e.getKey() + "}}", html ? escape(e.getValue()) : e.getValue());
    }
    return out;
  }

  private static String escape(String value) {
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
        .replace("'", "&#39;");
  }

  private static JsonObject load(String locale) {
    String path = "/accounts/messages/" + locale + ".json";
    try (InputStream in = Messages.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(path + " missing from the accounts service jar");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
