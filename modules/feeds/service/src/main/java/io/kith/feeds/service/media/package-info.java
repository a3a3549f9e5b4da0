/**
 * Feeds media: uploads and range reads over the event bus ({@code MediaVerticle}, {@code MediaTransfers}), content
 * sniffing, and the GridFS-laid-out store ({@code MediaStore}), whose attach and detach the feeds service in the
 * parent package calls when a post is published or deleted.
 */
package io.kith.feeds.service.media;
