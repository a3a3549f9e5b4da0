package io.kith.client;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads the Kotlin models openapi-generator made from the OpenAPI document in this build (execution
 * {@code kith-kotlin-models} of the pom, not compiled: no Kotlin compiler is needed). A Kotlin client once had no
 * {@code Long} field at all and overflowed on the first id; this keeps the README's "in Kotlin ids are Long" true.
 */
@DisplayName("The Kotlin models generated from the OpenAPI document (openapi-generator kotlin, jvm-okhttp4)")
class KotlinModelsTest {

  private static final Path MODELS = Path.of("target", "generated-kotlin", "src", "main", "kotlin", "io", "kith",
      "client", "kotlin", "models");
  private static final Pattern NUMBER = Pattern.compile("kotlin\\.(Int|Long|Short|Byte)\\b");

  @Test
  @DisplayName("every integer is kotlin.Long (ids reach 2^53 - 1), ids, sequence numbers and times among them, "
      + "but a problem's HTTP status")
  void integersAreLong() throws IOException {
    List<String> narrow = new ArrayList<>();
    int longs = 0;
    List<Path> files;
    try (Stream<Path> listing = Files.list(MODELS)) {
      files = listing.filter(f -> f.toString().endsWith(".kt")).toList();
    }
    assertTrue(files.size() > 100, "Kotlin models generated: " + files.size());
    for (Path file : files) {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        Matcher number = NUMBER.matcher(lines.get(i));
        while (number.find()) {
          if (number.group(1).equals("Long")) {
            longs++;
          } else if (!(file.endsWith("Problem.kt") && lines.get(i).contains("val status: kotlin.Int"))) {
            narrow.add(file.getFileName() + ":" + (i + 1) + ": " + lines.get(i).trim());
          }
        }
      }
    }
    assertEquals(List.of(), narrow, "integers narrower than Long");
    assertTrue(longs > 200, "kotlin.Long members: " + longs);
    assertTrue(Files.readString(MODELS.resolve("Post.kt")).contains("val id: kotlin.Long"), "Post.id");
    assertTrue(Files.readString(MODELS.resolve("Post.kt")).contains("val created: kotlin.Long"), "Post.created");
    assertTrue(Files.readString(MODELS.resolve("Message.kt")).contains("val seq: kotlin.Long"), "Message.seq");
  }
}
