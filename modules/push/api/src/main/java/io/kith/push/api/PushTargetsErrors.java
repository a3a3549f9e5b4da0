package io.kith.push.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of push targets and push preferences (beyond the shared {@code KithErrors}). */
public final class PushTargetsErrors {

  /** The target does not exist or is not the actor's. */
  public static final ErrorCode TARGET_NOT_FOUND = ErrorCode.of(404, "push_target_not_found", "Push target not found");
  /** The actor holds the most targets allowed ({@code push.max-targets-per-user}); remove one first. */
  public static final ErrorCode TARGETS_LIMIT = ErrorCode.of(409, "push_targets_limit", "Too many push targets");

  private PushTargetsErrors() {
  }
}
