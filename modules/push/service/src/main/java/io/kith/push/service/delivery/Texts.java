package io.kith.push.service.delivery;

import java.util.Locale;
import java.util.ResourceBundle;

/**
 * Kith's own words in pushes for one locale, from the resource bundle {@value #BUNDLE} ({@code push/texts.properties}
 * in English, {@code push/texts_zh_CN.properties} in Simplified Chinese; a locale is one more file). A locale without
 * its file, or none, reads English: the bundles never fall back to the JVM's default locale, which would make the
 * text depend on the machine. {@link ResourceBundle} caches the loaded bundles.
 */
final class Texts {

  static final String BUNDLE = "push.texts";
  private static final ResourceBundle.Control NO_DEFAULT_LOCALE =
      ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES);

  private final ResourceBundle bundle;

  private Texts(ResourceBundle bundle) {
    this.bundle = bundle;
  }

  /** The texts of {@code locale} (a language tag such as {@code zh-CN}; null or unknown: English). */
  static Texts of(String locale) {
    Locale wanted = locale == null || locale.isBlank() ? Locale.ROOT : Locale.forLanguageTag(locale);
    return new Texts(ResourceBundle.getBundle(BUNDLE, wanted, Texts.class.getClassLoader(), NO_DEFAULT_LOCALE));
  }

  /** The piece named {@code key}. */
  String get(String key) {
    return bundle.getString(key);
  }

  /** The sentence of notification {@code type} about {@code actor} and {@code title}; "Something new" if none. */
  String sentence(String type, String actor, String title) {
    String key = "type." + type;
    return bundle.containsKey(key) ? String.format(Locale.ROOT, bundle.getString(key), actor, title)
        : get("something_new");
  }
}
